/**
 * Sessions are served from memory, yet whatever ends them takes effect at once in this
 * process and within a second from another process sharing the database.
 */
import { afterEach, describe, expect, it } from "vitest";
import { ADMIN, createTestApp, type TestApp } from "../../test/harness.ts";
import { secondProcesses } from "../../test/second-process.ts";
import { SessionCache, createSession, revokeSessions, sessionExpiry } from "./sessions.ts";
import { findUserByMatric, sessionUser } from "./users.ts";

let t: TestApp;
const secondProcess = secondProcesses();

afterEach(async () => t.close());

const profile = (token: string) => t.request("/auth/profile", { token });

describe("session cache", () => {
  it("logout ends the session at once", async () => {
    t = await createTestApp();
    const { token } = await t.login(...adminLogin());
    expect((await profile(token)).status).toBe(200);
    expect((await profile(token)).status).toBe(200); // served from memory now
    expect((await t.request("/auth/logout", { method: "POST", token })).status).toBe(204);
    expect((await profile(token)).status).toBe(401);
  });

  it("revokeSessions ends every session of a user but the one kept, at once", async () => {
    t = await createTestApp();
    const a = await t.login(...adminLogin());
    const b = await t.login(...adminLogin());
    const c = await t.login(...adminLogin());
    for (const s of [a, b, c]) expect((await profile(s.token)).status).toBe(200);
    const kept = await t.deps.sessions.find(a.token, t.clock.now());
    const ended = await revokeSessions(t.deps, { userId: a.user._id, keepTokenHash: kept!.tokenHash }, t.clock.now());
    expect(ended).toBe(2);
    expect((await profile(a.token)).status).toBe(200);
    expect((await profile(b.token)).status).toBe(401);
    expect((await profile(c.token)).status).toBe(401);
    await revokeSessions(t.deps, { tokenHash: kept!.tokenHash }, t.clock.now());
    expect((await profile(a.token)).status).toBe(401);
  });

  it("a change to the signed-in user shows on the next request", async () => {
    t = await createTestApp();
    const { token } = await t.login(...adminLogin());
    expect(((await (await profile(token)).json()) as { email: string | null }).email).toBeNull();
    const put = await t.request("/auth/email", { method: "PUT", token, json: { email: "ro@uniport.edu.ng" } });
    expect(put.status).toBe(200);
    expect(((await (await profile(token)).json()) as { email: string | null }).email).toBe("ro@uniport.edu.ng");
  });

  it("a cached session still ends at its expiry", async () => {
    t = await createTestApp({ config: { sessionMs: 60_000 } });
    const start = t.clock.now();
    const { token } = await t.login(...adminLogin());
    expect((await profile(token)).status).toBe(200);
    // It lasts its lifetime, and ends at the expiry rounded up to its step (5 s here).
    t.clock.advance(59_999);
    expect((await profile(token)).status).toBe(200);
    const end = sessionExpiry(start, 60_000);
    expect(end - start).toBeLessThan(65_000);
    t.clock.advance(end - t.clock.now());
    expect((await profile(token)).status).toBe(401);
  });

  it("a revocation by another process takes effect here within a second", async () => {
    t = await createTestApp();
    const { token, user } = await t.login(...adminLogin());
    expect((await profile(token)).status).toBe(200);
    // Another process: its own connections and its own cache on the same database file.
    const other = await secondProcess(t);
    expect(await revokeSessions({ database: other, sessions: new SessionCache(other, t.clock) }, { userId: user._id }, t.clock.now())).toBe(1);
    // Until this process next reads the counter it may still serve the session from memory;
    // a second later (on the app's clock) it must not.
    t.clock.advance(1_000);
    expect((await profile(token)).status).toBe(401);
  });
});

describe("session reads", () => {
  /** Counts the database reads of a session by its token (the cache's only read). */
  function countSessionReads(app: TestApp): () => number {
    let reads = 0;
    const get = app.database.get;
    app.database.get = (sql, args) => {
      if (sql.includes("FROM sessions s JOIN users u")) reads++;
      return get(sql, args);
    };
    return () => reads;
  }

  it("a sign-in leaves its session in memory: the calls after it read none", async () => {
    t = await createTestApp();
    const reads = countSessionReads(t);
    const { token } = await t.login(...adminLogin());
    const [a, b] = await Promise.all([profile(token), t.request("/vote/positions", { token })]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(((await a.json()) as { matricNumber: string }).matricNumber).toBe(ADMIN.matricNumber);
    expect(reads()).toBe(0);
    // Logout still ends it at once.
    expect((await t.request("/auth/logout", { method: "POST", token })).status).toBe(204);
    expect((await profile(token)).status).toBe(401);
  });

  it("a session made from a user read before a change is read afresh, not remembered", async () => {
    t = await createTestApp();
    const reads = countSessionReads(t);
    const mark = t.deps.sessions.mark;
    const row = await findUserByMatric(t.database.db, ADMIN.matricNumber);
    // The account changes between the read and the session's commit (an admin's edit).
    const { token: other } = await t.login(...adminLogin());
    const put = await t.request("/auth/email", { method: "PUT", token: other, json: { email: "ro@uniport.edu.ng" } });
    expect(put.status).toBe(200);
    const { token } = await createSession(t.deps, sessionUser(row!), t.clock.now(), 60_000, mark);
    const res = await profile(token);
    expect(((await res.json()) as { email: string | null }).email).toBe("ro@uniport.edu.ng");
    expect(reads()).toBe(1);
  });

  it("requests that bring an unseen token together share one read", async () => {
    t = await createTestApp();
    const row = await findUserByMatric(t.database.db, ADMIN.matricNumber);
    // A mark that is already out of date: the session is committed but not kept in memory,
    // as for a session made by another process.
    const { token } = await createSession(t.deps, sessionUser(row!), t.clock.now(), 60_000, -1);
    const reads = countSessionReads(t);
    const found = await Promise.all(Array.from({ length: 5 }, () => t.deps.sessions.find(token, t.clock.now())));
    expect(found.every((s) => s?.user.id === row!.id)).toBe(true);
    expect(reads()).toBe(1);
    expect((await profile(token)).status).toBe(200);
    expect(reads()).toBe(1);
  });
});

function adminLogin(): [string, { password: string }] {
  return [ADMIN.matricNumber, { password: ADMIN.password }];
}
