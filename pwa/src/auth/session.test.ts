import { describe, expect, test } from "vitest";
import type { UserProfile } from "@evoting/shared";
import { session } from "./session";

const user: UserProfile = { _id: "u1", name: "Chidi", role: "voter", matricNumber: "2021/5570101", email: null, hasPassword: false };

describe("session", () => {
  test("sign-in stores token and user under authToken and user", () => {
    session.signIn("tok", user);
    expect(localStorage.getItem("authToken")).toBe("tok");
    expect(JSON.parse(localStorage.getItem("user")!)).toEqual(user);
    expect(session.isAuthenticated()).toBe(true);
  });

  test("is restored from storage only when both keys exist", () => {
    localStorage.setItem("authToken", "tok");
    session.reload();
    expect(session.isAuthenticated()).toBe(false);
    localStorage.setItem("user", JSON.stringify(user));
    session.reload();
    expect(session.get()).toEqual({ token: "tok", user });
  });

  test("updates merge into the stored user; clear forgets both", () => {
    session.signIn("tok", user);
    session.updateUser({ hasPassword: true, email: "c@uniport.edu.ng" });
    expect(session.user()).toMatchObject({ name: "Chidi", hasPassword: true, email: "c@uniport.edu.ng" });
    expect(JSON.parse(localStorage.getItem("user")!).hasPassword).toBe(true);
    session.clear();
    expect(session.get()).toBeNull();
    expect(localStorage.getItem("authToken")).toBeNull();
    expect(localStorage.getItem("user")).toBeNull();
  });
});

describe("cache and session", () => {
  test("a different token clears cached answers; a user update does not", async () => {
    const { createQueryClient, clearOnSessionChange } = await import("../data/query-client");
    const client = createQueryClient();
    const stop = clearOnSessionChange(client);
    session.signIn("first", user);
    client.setQueryData(["vote", "my-votes"], [{ positionId: "p", candidateId: "c", candidateName: "X" }]);
    session.updateUser({ email: "a@uniport.edu.ng" });
    expect(client.getQueryData(["vote", "my-votes"])).toHaveLength(1);
    session.signIn("second", { ...user, _id: "u2" });
    expect(client.getQueryData(["vote", "my-votes"])).toBeUndefined();
    stop();
  });
});
