import { describe, expect, test } from "vitest";
import { json, mockFetch } from "../test/fetch-mock";
import { api, ApiRequestError, errorMessage } from "./client";
import { session } from "../auth/session";

const user = { _id: "u", name: "U", role: "voter" as const, matricNumber: "2020/5570001", email: null, hasPassword: false };

describe("api client", () => {
  test("sends the bearer token and parses JSON", async () => {
    session.signIn("tok-1", user);
    const fetch = mockFetch({ "GET /api/auth/profile": () => json(user) });
    await expect(api.profile()).resolves.toEqual(user);
    expect((fetch.mock.calls[0][1]!.headers as Record<string, string>).Authorization).toBe("Bearer tok-1");
  });

  test("a 401 signs the user out", async () => {
    session.signIn("expired", user);
    mockFetch({ "GET /api/vote/my-votes": () => json({ message: "Your session has expired. Please sign in again" }, 401) });
    await expect(api.myVotes()).rejects.toBeInstanceOf(ApiRequestError);
    expect(session.isAuthenticated()).toBe(false);
  });

  test("a refused sign-in does not touch the session", async () => {
    session.signIn("still-valid", user);
    mockFetch({ "POST /api/auth/login": () => json({ message: "Invalid matriculation number or credentials" }, 401) });
    await expect(api.login({ matricNumber: "2020/5570001", password: "x" })).rejects.toThrow("Invalid matriculation number or credentials");
    expect(session.token()).toBe("still-valid");
  });

  test("errors carry the server's message, else the caller's fallback", async () => {
    mockFetch({
      "DELETE /api/admin/positions/p1": () => json({ message: "Position not found" }, 404),
      "DELETE /api/admin/positions/p2": () => new Response("<html>bad gateway</html>", { status: 502 }),
    });
    const known = await api.deletePosition("p1").catch((e: unknown) => e);
    expect(errorMessage(known, "Failed to delete position")).toBe("Position not found");
    const unknown = await api.deletePosition("p2").catch((e: unknown) => e);
    expect(errorMessage(unknown, "Failed to delete position")).toBe("Failed to delete position");
    expect(errorMessage(new TypeError("Failed to fetch"), "Failed to delete position")).toBe("Failed to delete position");
  });

  test("candidates are sent as multipart with the optional photo", async () => {
    const fetch = mockFetch({ "POST /api/admin/candidates": () => json({}, 201) });
    const photo = new File([new Uint8Array([137, 80, 78, 71])], "p.png", { type: "image/png" });
    await api.createCandidate({ name: "Amaka", positionId: "p1", photo });
    const body = fetch.mock.calls[0][1]!.body as FormData;
    expect(body).toBeInstanceOf(FormData);
    expect(body.get("name")).toBe("Amaka");
    expect(body.get("positionId")).toBe("p1");
    expect(body.get("photo")).toBeInstanceOf(File);
  });
});
