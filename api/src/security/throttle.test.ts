/**
 * Sign-in limits under parallel requests, across processes, behind a proxy and behind a
 * campus NAT. Every request goes through the app on a real database file.
 */
import { afterEach, describe, expect, it } from "vitest";
import { Hono } from "hono";
import { messages } from "@evoting/shared";
import { createApp } from "../app.ts";
import { buildDeps, closeDeps } from "../context.ts";
import { openDatabase } from "../db/client.ts";
import { requestAddress } from "../http/auth.ts";
import { ADMIN, createTestApp, type TestApp } from "../test/harness.ts";
import { LIMITS } from "./throttle.ts";

let t: TestApp;
afterEach(async () => t.close());

const login = (app: { request: TestApp["request"] }, json: unknown, headers?: Record<string, string>) =>
  app.request("/auth/login", { method: "POST", json, headers });

const tally = (statuses: number[]) => statuses.reduce<Record<number, number>>((m, s) => ({ ...m, [s]: (m[s] ?? 0) + 1 }), {});

describe("a burst of parallel guesses", () => {
  it("runs only the free tries' worth of checks and yields no token", async () => {
    t = await createTestApp();
    const voter = await t.createVoter(await t.adminToken(), "20020515");
    // 365 guesses at once, one a day of a year; the right one is sent last.
    const guesses = Array.from({ length: 365 }, (_, i) => Number(new Date(Date.UTC(2001, 0, 1 + i)).toISOString().slice(0, 10).replaceAll("-", "")));
    guesses[364] = 20020515;
    const answers = await Promise.all(guesses.map((dateOfBirth) => login(t, { matricNumber: voter.matricNumber, dateOfBirth })));
    const counts = tally(answers.map((r) => r.status));
    expect(counts[401]).toBe(LIMITS.FREE_TRIES);
    expect(counts[429]).toBe(365 - LIMITS.FREE_TRIES);
    expect(counts[200]).toBeUndefined();
  });

  it("throttles password changes, even with the right current password", async () => {
    t = await createTestApp();
    const token = await t.adminToken();
    const changes = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        t.request("/auth/password", { method: "PUT", token, json: { currentPassword: ADMIN.password, newPassword: `new-secret-${i}` } }),
      ),
    );
    const counts = tally(changes.map((r) => r.status));
    expect((counts[200] ?? 0) + (counts[400] ?? 0)).toBeLessThanOrEqual(LIMITS.FREE_TRIES);
    expect(counts[429]).toBeGreaterThanOrEqual(60 - LIMITS.FREE_TRIES);
  });

  it("caps the password checks one address has waiting before they reach the hash queue, counting none it refuses", async () => {
    // In process: all twenty must be waiting at once, which sockets on a loaded machine do not
    // promise (an early check can finish before the last request arrives, freeing its place).
    t = await createTestApp({ config: { signInLimits: { ADDRESS_HASHES: 4 } }, listen: false });
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => login(t, { matricNumber: `2021/5570${100 + i}`, password: "not-the-password" })),
    );
    const counts = tally(answers.map((r) => r.status));
    expect(counts[401]).toBe(4);
    expect(counts[429]).toBe(16);
    expect(answers.find((r) => r.status === 429)?.headers.get("retry-after")).toBe("1");
    const counted = await t.database.client.execute("SELECT count(*) AS n FROM signin_tries");
    expect(Number(counted.rows[0].n)).toBe(4);
  });
});

describe("a campus signing in from one address", () => {
  it("takes every date-of-birth sign-in at once: they take no hash slot", async () => {
    t = await createTestApp({ config: { signInLimits: { ADDRESS_HASHES: 2 } } });
    const admin = await t.adminToken();
    const crowd = [];
    for (let i = 0; i < 40; i++) crowd.push(await t.createVoter(admin, "20020515"));
    const answers = await Promise.all(crowd.map((v) => login(t, { matricNumber: v.matricNumber, dateOfBirth: 20020515 })));
    expect(tally(answers.map((r) => r.status))).toEqual({ 200: 40 });
    // Meanwhile password checks from the same address are still capped.
    const passwords = await Promise.all(Array.from({ length: 6 }, () => login(t, { matricNumber: ADMIN.matricNumber, password: "wrong-one" })));
    expect(tally(passwords.map((r) => r.status))[429]).toBeGreaterThanOrEqual(4);
  });

  it("lets a roll of 10,000 look itself up from one address within a minute", async () => {
    t = await createTestApp({ config: { trustProxy: 1 } });
    const lookUp = (i: number) =>
      t.request("/auth/check-user", { method: "POST", json: { matricNumber: `2021/5570${String(i).padStart(5, "0")}` }, headers: { "x-forwarded-for": "192.0.2.10" } });
    // 9,990 counted straight on the route's own counter, the last ten through HTTP (a 10,000-request
    // test would measure the machine, not the limit).
    for (let i = 0; i < 9_990; i++) expect(t.deps.throttle.checkUser.take("192.0.2.10")).toBe(0);
    const last = await Promise.all(Array.from({ length: 10 }, (_, i) => lookUp(i)));
    expect(tally(last.map((r) => r.status))).toEqual({ 404: 10 });
  });
});

describe("one count for every process", () => {
  it("a second process on the same database (or a restart) sees the first one's failures", async () => {
    t = await createTestApp();
    const voter = await t.createVoter(await t.adminToken(), "20020515");
    for (let i = 0; i < LIMITS.FREE_TRIES; i++) {
      expect((await login(t, { matricNumber: voter.matricNumber, dateOfBirth: 19990101 + i })).status).toBe(401);
    }
    const database = await openDatabase({ url: `file:${t.database.filePath}`, synchronous: "NORMAL" });
    const deps = buildDeps(database, t.clock, t.deps.keys);
    const other = createApp(deps);
    try {
      const res = await other.request("/api/auth/login", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ matricNumber: voter.matricNumber, dateOfBirth: 20020515 }),
      });
      expect(res.status).toBe(429);
    } finally {
      await closeDeps(deps);
    }
  });
});

describe("what counts as a failure", () => {
  it("a date of birth offered to a password account is a wrong answer", async () => {
    t = await createTestApp();
    for (let i = 0; i < LIMITS.FREE_TRIES; i++) {
      const res = await login(t, { matricNumber: ADMIN.matricNumber, dateOfBirth: 20000101 + i });
      expect((await res.json()).message).toBe(messages.passwordRequired);
    }
    expect((await login(t, { matricNumber: ADMIN.matricNumber, password: ADMIN.password })).status).toBe(429);
  });

  it("wrong dates of birth in a first-password change count against the account", async () => {
    t = await createTestApp();
    const voter = await t.createVoter(await t.adminToken(), "20020515");
    for (let i = 0; i < LIMITS.FREE_TRIES; i++) {
      const res = await t.request("/auth/password", {
        method: "PUT",
        token: voter.token,
        json: { currentPassword: String(19990101 + i), newPassword: "taken-over" },
      });
      expect(res.status).toBe(400);
    }
    expect((await login(t, { matricNumber: voter.matricNumber, dateOfBirth: 20020515 })).status).toBe(429);
  });
});

describe("campus NAT", () => {
  it("one address failing on a few accounts does not lock its honest neighbours out", async () => {
    t = await createTestApp();
    const admin = await t.adminToken();
    const victims = [await t.createVoter(admin, "20020515"), await t.createVoter(admin, "20030616"), await t.createVoter(admin, "20040717")];
    const honest = await t.createVoter(admin, "20010101");
    // 330 wrong answers from the one address, in bursts (more than a per-address limit of 300 would allow).
    for (const v of victims) {
      await Promise.all(Array.from({ length: 110 }, (_, i) => login(t, { matricNumber: v.matricNumber, dateOfBirth: 19800101 + i })));
    }
    expect((await login(t, { matricNumber: honest.matricNumber, dateOfBirth: 20010101 })).status).toBe(200);
  });

  it("trying many distinct accounts spends the address's budget", async () => {
    t = await createTestApp({ config: { signInLimits: { ADDRESS_ACCOUNTS: 3 } } });
    const admin = await t.adminToken();
    const honest = await t.createVoter(admin, "20010101");
    for (let i = 0; i < 3; i++) {
      expect((await login(t, { matricNumber: `2021/5570${200 + i}`, dateOfBirth: 20000101 })).status).toBe(401);
    }
    const refused = await login(t, { matricNumber: honest.matricNumber, dateOfBirth: 20010101 });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBe(LIMITS.ADDRESS_WINDOW_MS / 1000);
    t.clock.advance(LIMITS.ADDRESS_WINDOW_MS);
    expect((await login(t, { matricNumber: honest.matricNumber, dateOfBirth: 20010101 })).status).toBe(200);
  });
});

describe("X-Forwarded-For behind a trusted proxy", () => {
  const probe = (hops: number) => new Hono().get("/", (c) => c.text(requestAddress(c, hops)));
  const from = (hops: number, header: string) => Promise.resolve(probe(hops).request("/", { headers: { "x-forwarded-for": header } })).then((r) => r.text());

  it("takes the entry the proxy appended, not one the client wrote", async () => {
    expect(await from(1, "6.6.6.6, 203.0.113.7")).toBe("203.0.113.7");
    expect(await from(2, "6.6.6.6, 203.0.113.7, 10.0.0.2")).toBe("203.0.113.7");
    expect(await from(1, "203.0.113.7")).toBe("203.0.113.7");
    expect(await from(3, "203.0.113.7")).toBe("203.0.113.7");
  });

  it("ignores the header unless told to trust a proxy", async () => {
    expect(await from(0, "6.6.6.6")).not.toBe("6.6.6.6");
  });

  it("a client cannot dodge the address budget by writing its own X-Forwarded-For", async () => {
    t = await createTestApp({ config: { trustProxy: 1, signInLimits: { ADDRESS_ACCOUNTS: 2 } } });
    for (let i = 0; i < 2; i++) {
      const res = await login(t, { matricNumber: `2021/5570${300 + i}`, dateOfBirth: 20000101 }, { "x-forwarded-for": `6.6.6.${i}, 198.51.100.4` });
      expect(res.status).toBe(401);
    }
    const res = await login(t, { matricNumber: "2021/5570399", dateOfBirth: 20000101 }, { "x-forwarded-for": "6.6.6.9, 198.51.100.4" });
    expect(res.status).toBe(429);
  });
});
