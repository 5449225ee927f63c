import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { messages } from "@evoting/shared";
import { ADMIN, createTestApp, type TestApp } from "../test/harness.ts";
import { LIMITS } from "../security/throttle.ts";

let t: TestApp;
beforeEach(async () => (t = await createTestApp()));
afterEach(async () => t.close());

const post = (path: string, json: unknown, token?: string) => t.request(path, { method: "POST", json, token });

describe("check-user", () => {
  it("tells password accounts from date-of-birth accounts", async () => {
    const admin = await t.adminToken();
    const voter = await t.createVoter(admin);
    expect(await (await post("/auth/check-user", { matricNumber: ADMIN.matricNumber })).json()).toEqual({ requiresPassword: true });
    expect(await (await post("/auth/check-user", { matricNumber: voter.matricNumber })).json()).toEqual({ requiresPassword: false });
  });

  it("answers 404 'User not found' for an unknown matric", async () => {
    const res = await post("/auth/check-user", { matricNumber: "2021/5570999" });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ message: messages.userNotFound });
  });

  it("validates the matric with docs/product.md's messages", async () => {
    const missing = await post("/auth/check-user", {});
    expect(missing.status).toBe(400);
    expect((await missing.json()).message).toBe(messages.matricRequired);
    const bad = await post("/auth/check-user", { matricNumber: "2020/1234567" });
    expect((await bad.json()).message).toBe(messages.matricFormat);
  });
});

describe("login", () => {
  it("signs in by password and by date of birth (number or 8-digit string)", async () => {
    const admin = await post("/auth/login", { matricNumber: ADMIN.matricNumber, password: ADMIN.password });
    expect(admin.status).toBe(200);
    const body = await admin.json();
    expect(body.role).toBe("admin");
    expect(body.user).toMatchObject({ matricNumber: ADMIN.matricNumber, name: ADMIN.name, hasPassword: true, role: "admin" });
    expect(body.token).toMatch(/^[A-Za-z0-9_-]{40,}$/);

    const voter = await t.createVoter(body.token, "20011231");
    const byNumber = await post("/auth/login", { matricNumber: voter.matricNumber, dateOfBirth: 20011231 });
    expect(byNumber.status).toBe(200);
    expect((await byNumber.json()).role).toBe("voter");
    const byString = await post("/auth/login", { matricNumber: voter.matricNumber, dateOfBirth: "20011231" });
    expect(byString.status).toBe(200);
  });

  it("refuses wrong secrets with 401 and never says which part was wrong", async () => {
    const wrong = await post("/auth/login", { matricNumber: ADMIN.matricNumber, password: "nope-nope" });
    expect(wrong.status).toBe(401);
    expect((await wrong.json()).message).toBe(messages.invalidCredentials);
    const unknown = await post("/auth/login", { matricNumber: "2022/5570777", dateOfBirth: 20000101 });
    expect(unknown.status).toBe(401);
    expect((await unknown.json()).message).toBe(messages.invalidCredentials);
  });

  it("asks for the right secret for the account", async () => {
    const admin = await t.adminToken();
    const voter = await t.createVoter(admin);
    const noPassword = await post("/auth/login", { matricNumber: ADMIN.matricNumber, dateOfBirth: 20000101 });
    expect(noPassword.status).toBe(400);
    expect((await noPassword.json()).message).toBe(messages.passwordRequired);
    const noDob = await post("/auth/login", { matricNumber: voter.matricNumber, password: "whatever" });
    expect(noDob.status).toBe(400);
    expect((await noDob.json()).message).toBe(messages.dobRequired);
    const badDob = await post("/auth/login", { matricNumber: voter.matricNumber, dateOfBirth: 2002051 });
    expect((await badDob.json()).message).toBe(messages.dobFormat);
  });

  it("throttles guessing per account with growing delays, then lets the voter back in", async () => {
    const admin = await t.adminToken();
    const voter = await t.createVoter(admin, "20020515");
    for (let i = 0; i < LIMITS.FREE_TRIES; i++) {
      expect((await post("/auth/login", { matricNumber: voter.matricNumber, dateOfBirth: 20000101 + i })).status).toBe(401);
    }
    const locked = await post("/auth/login", { matricNumber: voter.matricNumber, dateOfBirth: 20020515 });
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    t.clock.advance(1_000);
    expect((await post("/auth/login", { matricNumber: voter.matricNumber, dateOfBirth: 19990101 })).status).toBe(401);
    const second = await post("/auth/login", { matricNumber: voter.matricNumber, dateOfBirth: 20020515 });
    expect(second.status).toBe(429);
    expect(Number(second.headers.get("retry-after"))).toBe(2);
    // The lock is bounded: after the cap the real voter gets in.
    t.clock.advance(LIMITS.MAX_LOCK_MS);
    expect((await post("/auth/login", { matricNumber: voter.matricNumber, dateOfBirth: 20020515 })).status).toBe(200);
  });

  it("does not count successes against a shared address", async () => {
    const admin = await t.adminToken();
    const voter = await t.createVoter(admin);
    for (let i = 0; i < 30; i++) {
      expect((await post("/auth/login", { matricNumber: voter.matricNumber, dateOfBirth: Number(voter.dateOfBirth) })).status).toBe(200);
    }
  });
});

describe("sessions", () => {
  it("requires a token, expires after the absolute lifetime and is revoked by logout", async () => {
    expect((await t.request("/auth/profile")).status).toBe(401);
    expect((await t.request("/auth/profile", { token: "forged-token-forged-token-forged" })).status).toBe(401);
    const token = await t.adminToken();
    expect((await t.request("/auth/profile", { token })).status).toBe(200);
    t.clock.advance(12 * 3_600_000 + 1);
    expect((await t.request("/auth/profile", { token })).status).toBe(401);

    const fresh = await t.adminToken();
    expect((await t.request("/auth/logout", { method: "POST", token: fresh })).status).toBe(204);
    expect((await t.request("/auth/profile", { token: fresh })).status).toBe(401);
  });
});

describe("profile, email and password", () => {
  it("returns the signed-in user's own profile", async () => {
    const admin = await t.adminToken();
    const voter = await t.createVoter(admin);
    const res = await t.request("/auth/profile", { token: voter.token });
    expect(await res.json()).toMatchObject({ matricNumber: voter.matricNumber, email: null, hasPassword: false, role: "voter" });
  });

  it("updates the email only within the university domain", async () => {
    const token = await t.adminToken();
    const put = (email: unknown) => t.request("/auth/email", { method: "PUT", token, json: { email } });
    expect((await (await put("")).json()).message).toBe(messages.emailRequired);
    expect((await (await put("me@gmail.com")).json()).message).toBe(messages.emailDomain);
    const ok = await put("Ada@Uniport.edu.ng");
    expect(ok.status).toBe(200);
    expect((await ok.json()).email).toBe("ada@uniport.edu.ng");
    expect((await (await t.request("/auth/profile", { token })).json()).email).toBe("ada@uniport.edu.ng");
  });

  it("lets a date-of-birth voter set a password by proving the date of birth, after which login needs it", async () => {
    const admin = await t.adminToken();
    const voter = await t.createVoter(admin);
    const put = (json: unknown) => t.request("/auth/password", { method: "PUT", token: voter.token, json });
    // A signed-in session alone is not enough (a shared computer left open).
    const bare = await put({ newPassword: "secret1" });
    expect(bare.status).toBe(400);
    expect((await bare.json()).message).toBe(messages.currentDobRequired);
    const wrong = await put({ currentPassword: "19990101", newPassword: "secret1" });
    expect(wrong.status).toBe(400);
    expect((await wrong.json()).message).toBe(messages.currentDobWrong);
    expect(await (await post("/auth/check-user", { matricNumber: voter.matricNumber })).json()).toEqual({ requiresPassword: false });
    const res = await put({ currentPassword: voter.dateOfBirth, newPassword: "secret1" });
    expect(res.status).toBe(200);
    expect(await (await post("/auth/check-user", { matricNumber: voter.matricNumber })).json()).toEqual({ requiresPassword: true });
    expect((await post("/auth/login", { matricNumber: voter.matricNumber, password: "secret1" })).status).toBe(200);
    expect((await post("/auth/login", { matricNumber: voter.matricNumber, dateOfBirth: Number(voter.dateOfBirth) })).status).toBe(400);
  });

  it("requires the current password once one exists and revokes other sessions", async () => {
    const first = await t.adminToken();
    const second = await t.adminToken();
    const put = (json: unknown) => t.request("/auth/password", { method: "PUT", token: first, json });
    expect((await (await put({ newPassword: "another1" })).json()).message).toBe(messages.currentPasswordRequired);
    const wrong = await put({ currentPassword: "wrong-one", newPassword: "another1" });
    expect(wrong.status).toBe(400);
    expect((await wrong.json()).message).toBe(messages.currentPasswordWrong);
    expect((await (await put({ currentPassword: ADMIN.password, newPassword: "abc" })).json()).message).toBe(messages.passwordTooShort);
    expect((await (await put({ currentPassword: ADMIN.password })).json()).message).toBe(messages.newPasswordRequired);
    const ok = await put({ currentPassword: ADMIN.password, newPassword: "another1" });
    expect(ok.status).toBe(200);
    expect((await t.request("/auth/profile", { token: first })).status).toBe(200);
    expect((await t.request("/auth/profile", { token: second })).status).toBe(401);
    expect((await post("/auth/login", { matricNumber: ADMIN.matricNumber, password: "another1" })).status).toBe(200);
  });
});
