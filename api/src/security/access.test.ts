/**
 * Access control: every route walked as anonymous, voter, another voter, admin, observer and officer,
 * and object-level checks: a voter can never read or change another voter's data.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, TINY_PNG, type TestApp } from "../test/harness.ts";

type Role = "anonymous" | "voter" | "admin" | "observer" | "officer";
interface Route {
  method: string;
  path: () => string;
  /** Who gets past the door: public routes check their own input or token instead. */
  access: "public" | "signed-in" | "voter" | "admin" | "trustee";
  /** Public routes answer the same to every role (the bearer is irrelevant to them). */
  expect?: number;
  body?: () => unknown;
  form?: () => FormData;
}

let t: TestApp;
let admin: string;
let alice: { token: string; matricNumber: string };
let bob: { token: string; matricNumber: string };
/** Staff who are not admins: an observer reads the admin area, an officer gets none of it. */
let staff: Record<"observer" | "officer", string>;
let positionId: string;
let candidateId: string;

beforeAll(async () => {
  // A batch of 1: these tests read each vote in the tallies as soon as it is applied.
  t = await createTestApp({ ballotBatch: 1 });
  admin = await t.adminToken();
  const election = await t.openElection(admin, ["Ada", "Grace"]);
  positionId = election.position._id;
  candidateId = election.candidates[0]._id;
  alice = await t.createVoter(admin, "20010101");
  bob = await t.createVoter(admin, "20020202");
  const makeStaff = async (role: "observer" | "officer", matricNumber: string) => {
    const res = await t.request("/admin/users", { method: "POST", token: admin, json: { name: role, matricNumber, role, password: `${role}-secret-1` } });
    if (res.status !== 201) throw new Error(`create ${role}: ${res.status} ${await res.text()}`);
    return (await t.login(matricNumber, { password: `${role}-secret-1` })).token;
  };
  staff = { observer: await makeStaff("observer", "2020/5570901"), officer: await makeStaff("officer", "2020/5570902") };
});
afterAll(async () => t.close());

const MISSING = "00000000-0000-4000-8000-000000000000";
/** A new account each time: a reset request is a counted try, like a sign-in. */
let resetSeq = 0;
const routes: Route[] = [
  { method: "POST", path: () => "/auth/check-user", access: "public", expect: 200, body: () => ({ matricNumber: alice.matricNumber }) },
  { method: "POST", path: () => "/auth/login", access: "public", expect: 401, body: () => ({ matricNumber: "2020/5570999", dateOfBirth: 20000101 }) },
  { method: "GET", path: () => "/health", access: "public", expect: 200 },
  { method: "POST", path: () => "/auth/password-reset", access: "public", expect: 202, body: () => ({ matricNumber: `2021/5570${100 + resetSeq++}` }) },
  { method: "POST", path: () => "/auth/password-reset/confirm", access: "public", expect: 400, body: () => ({ token: "not-a-token", newPassword: "new-secret-1" }) },
  { method: "GET", path: () => `/photos/${MISSING}`, access: "public", expect: 404 },
  { method: "GET", path: () => "/auth/profile", access: "signed-in" },
  { method: "PUT", path: () => "/auth/email", access: "signed-in", body: () => ({ email: "someone@uniport.edu.ng" }) },
  { method: "GET", path: () => "/vote/positions", access: "signed-in" },
  { method: "GET", path: () => "/vote/my-votes", access: "signed-in" },
  { method: "GET", path: () => "/vote/results", access: "signed-in" },
  { method: "GET", path: () => "/vote/chat-token", access: "signed-in" },
  { method: "GET", path: () => "/realtime/token", access: "signed-in" },
  { method: "GET", path: () => "/chat/messages", access: "signed-in" },
  { method: "GET", path: () => "/chat/status", access: "signed-in" },
  { method: "POST", path: () => "/vote", access: "voter", body: () => ({ positionId, candidateId: "not-a-candidate" }) },
  { method: "POST", path: () => "/admin/users", access: "admin", body: () => ({ name: "", matricNumber: "x", dateOfBirth: 1 }) },
  { method: "GET", path: () => "/admin/positions", access: "admin" },
  { method: "POST", path: () => "/admin/positions", access: "admin", body: () => ({ title: "" }) },
  { method: "DELETE", path: () => `/admin/positions/${MISSING}`, access: "admin" },
  { method: "GET", path: () => "/admin/candidates", access: "admin" },
  { method: "POST", path: () => "/admin/candidates", access: "admin", form: () => new FormData() },
  { method: "DELETE", path: () => `/admin/candidates/${MISSING}`, access: "admin" },
  { method: "DELETE", path: () => "/chat/messages/999999", access: "admin" },
  { method: "POST", path: () => "/chat/mutes", access: "admin", body: () => ({}) },
  { method: "DELETE", path: () => `/chat/mutes/${MISSING}`, access: "admin" },
  // Accountability.
  { method: "GET", path: () => "/admin/audit", access: "admin" },
  { method: "GET", path: () => "/admin/audit/export.csv", access: "admin" },
  { method: "GET", path: () => "/admin/audit/verify", access: "admin" },
  { method: "GET", path: () => "/admin/results.csv", access: "admin" },
  { method: "GET", path: () => "/admin/results/sheet", access: "admin" },
  { method: "GET", path: () => "/admin/turnout", access: "admin" },
  { method: "GET", path: () => `/admin/positions/${positionId}/who-voted`, access: "admin" },
  { method: "GET", path: () => `/vote/receipts?positionId=${MISSING}`, access: "signed-in" },
  // The election's life: an open election before its close is neither declared nor replaced.
  { method: "GET", path: () => "/elections", access: "signed-in" },
  { method: "GET", path: () => "/elections/1", access: "signed-in" },
  { method: "GET", path: () => `/elections/1/positions/${MISSING}/archive.bel`, access: "signed-in" },
  { method: "GET", path: () => "/admin/elections/current", access: "admin" },
  { method: "POST", path: () => "/admin/election/declare", access: "admin" },
  { method: "POST", path: () => "/admin/elections", access: "admin", body: () => ({ title: "" }) },
  // Voter roll.
  { method: "POST", path: () => "/admin/voters/import?dryRun=1", access: "admin", form: () => new FormData() },
  { method: "GET", path: () => "/admin/voters", access: "admin" },
  { method: "GET", path: () => "/admin/voters/groups", access: "admin" },
  { method: "GET", path: () => "/admin/voters/export.csv", access: "admin" },
  { method: "PATCH", path: () => `/admin/voters/${MISSING}`, access: "admin", body: () => ({ name: "X" }) },
  { method: "POST", path: () => `/admin/voters/${MISSING}/reset-password`, access: "admin" },
  { method: "DELETE", path: () => `/admin/voters/${MISSING}`, access: "admin" },
  // Nominations: voters apply and answer; the committee screens; observers read.
  { method: "GET", path: () => "/nominations", access: "voter" },
  { method: "POST", path: () => "/nominations", access: "voter", form: () => new FormData() },
  { method: "POST", path: () => `/nominations/${MISSING}/confirm`, access: "voter" },
  { method: "POST", path: () => `/nominations/${MISSING}/decline`, access: "voter" },
  { method: "POST", path: () => `/nominations/${MISSING}/withdraw`, access: "voter" },
  { method: "GET", path: () => "/admin/nominations", access: "admin" },
  { method: "POST", path: () => `/admin/nominations/${MISSING}/approve`, access: "admin" },
  { method: "POST", path: () => `/admin/nominations/${MISSING}/reject`, access: "admin", body: () => ({ reason: "No" }) },
  // Notify Voters: observers see the sends, only admins send.
  { method: "GET", path: () => "/admin/notifications", access: "admin" },
  { method: "GET", path: () => "/admin/notifications/recipients?kind=invitation", access: "admin" },
  { method: "POST", path: () => "/admin/notifications", access: "admin", body: () => ({ kind: "nobody" }) },
  // Verifiable positions: the set-up is an admin's; a trustee (an observer's account) registers
  // its key and submits its own partial decryption; the ballot box is public.
  { method: "GET", path: () => "/admin/trustees", access: "admin" },
  { method: "POST", path: () => "/admin/trustees", access: "trustee", body: () => ({ name: "T", publicKey: "{}" }) },
  { method: "PUT", path: () => `/admin/positions/${MISSING}/credentials`, access: "admin", body: () => ({ publicCredentials: [] }) },
  { method: "POST", path: () => `/admin/positions/${MISSING}/lock`, access: "admin" },
  { method: "POST", path: () => `/admin/positions/${MISSING}/partial-decryptions`, access: "trustee", body: () => ({ trusteeId: 1, partialDecryption: "{}" }) },
  { method: "GET", path: () => `/positions/${MISSING}/archive.bel`, access: "public", expect: 404 },
  { method: "GET", path: () => `/positions/${MISSING}/board`, access: "public", expect: 404 },
];

function send(r: Route, token?: string) {
  return t.request(r.path(), {
    method: r.method,
    token,
    ...(r.body ? { json: r.body() } : {}),
    ...(r.form ? { body: r.form() } : {}),
  });
}

/** The door's answer for a role: 401/403, or null when the role gets through. */
function door(r: Route, role: Role): 401 | 403 | null {
  if (r.access === "public") return null;
  if (role === "anonymous") return 401;
  // Observers read the admin area (GET) and write nothing; officers get none of it.
  const reading = r.method === "GET" || r.method === "HEAD";
  if (r.access === "admin" && role !== "admin" && !(role === "observer" && reading && r.path().startsWith("/admin"))) return 403;
  if (r.access === "trustee" && role !== "admin" && role !== "observer") return 403;
  if (r.access === "voter" && role !== "voter") return 403; // staff never vote
  return null;
}

describe("every route, every role", () => {
  for (const role of ["anonymous", "voter", "admin", "observer", "officer"] as Role[]) {
    it(`as ${role}`, async () => {
      const token = role === "anonymous" ? undefined : role === "admin" ? admin : role === "voter" ? bob.token : staff[role];
      for (const r of routes) {
        const res = await send(r, token);
        const expected = door(r, role);
        const label = `${role} ${r.method} ${r.path()} -> ${res.status}`;
        if (r.expect) expect(res.status, label).toBe(r.expect);
        else if (expected) expect(res.status, label).toBe(expected);
        else expect([401, 403], label).not.toContain(res.status);
        expect(res.status, label).toBeLessThan(500);
        if (res.status !== 204 && res.status !== 200 && !r.path().startsWith("/photos")) {
          expect(typeof (await res.json()).message, label).toBe("string");
        }
      }
    });
  }

  it("a forged, malformed, expired or revoked bearer token is 401 everywhere it matters", async () => {
    const forged = ["x".repeat(43), "Bearer", "a".repeat(500), "../../etc/passwd-padding-padding", "null"];
    const gated = routes.filter((r) => r.access !== "public");
    for (const token of forged) {
      for (const r of gated) expect((await send(r, token)).status, `${r.method} ${r.path()}`).toBe(401);
    }
    const { token } = await t.login(bob.matricNumber, { dateOfBirth: 20020202 });
    expect((await t.request("/auth/logout", { method: "POST", token })).status).toBe(204);
    expect((await t.request("/auth/profile", { token })).status).toBe(401);
    const late = await t.login(bob.matricNumber, { dateOfBirth: 20020202 });
    t.clock.advance(13 * 3_600_000); // past the 12 h absolute lifetime
    expect((await t.request("/auth/profile", { token: late.token })).status).toBe(401);
    t.clock.advance(-13 * 3_600_000);
  });

  it("a stream or chat token is not a bearer session, and a session is not a stream token", async () => {
    const stream = (await (await t.request("/realtime/token", { token: bob.token })).json()).token as string;
    const chat = (await (await t.request("/vote/chat-token", { token: bob.token })).json()).token as string;
    for (const token of [stream, chat]) expect((await t.request("/vote/my-votes", { token })).status).toBe(401);
    const bySession = await t.request(`/realtime?channel=ballot-updates&token=${encodeURIComponent(bob.token)}`);
    expect(bySession.status).toBe(401);
    const byChat = await t.request(`/realtime?channel=ballot-updates&token=${encodeURIComponent(chat)}`);
    expect(byChat.status).toBe(401);
  });
});

describe("object-level: one voter never reaches another's data", () => {
  it("profile, my-votes and email are the caller's own", async () => {
    const vote = await t.request("/vote", { method: "POST", token: alice.token, json: { positionId, candidateId } });
    expect(vote.status).toBe(201);
    const aliceVotes = await (await t.request("/vote/my-votes", { token: alice.token })).json();
    const bobVotes = await (await t.request("/vote/my-votes", { token: bob.token })).json();
    expect(aliceVotes).toHaveLength(1);
    expect(bobVotes).toEqual([]);

    expect((await (await t.request("/auth/profile", { token: bob.token })).json()).matricNumber).toBe(bob.matricNumber);
    // Smuggled ids or matric numbers in the body are ignored: the session decides whose email.
    const put = await t.request("/auth/email", {
      method: "PUT",
      token: bob.token,
      json: { email: "bob@uniport.edu.ng", matricNumber: alice.matricNumber, userId: "anything", _id: "anything" },
    });
    expect(put.status).toBe(200);
    expect((await (await t.request("/auth/profile", { token: alice.token })).json()).email).toBeNull();
    expect((await (await t.request("/auth/profile", { token: bob.token })).json()).email).toBe("bob@uniport.edu.ng");
  });

  it("idempotency keys are per user: another voter's key neither replays nor blocks", async () => {
    const key = crypto.randomUUID();
    const json = { positionId, candidateId };
    const a = await t.request("/vote", { method: "POST", token: alice.token, headers: { "idempotency-key": key }, json });
    expect(a.status).toBe(409); // alice voted above; her key now records the 409
    const b = await t.request("/vote", { method: "POST", token: bob.token, headers: { "idempotency-key": key }, json });
    expect(b.status).toBe(201); // bob's first vote counts, not alice's stored answer
    const bobAgain = await t.request("/vote", {
      method: "POST",
      token: bob.token,
      headers: { "idempotency-key": key },
      json: { positionId, candidateId: "other-candidate" },
    });
    expect(bobAgain.status).toBe(422);
    const mine = await (await t.request("/vote/my-votes", { token: bob.token })).json();
    expect(mine).toEqual([{ positionId, candidateId, candidateName: "Ada", receipt: expect.stringMatching(/^[0-9A-Z]{10}$/) }]);
    // Results may be served a moment stale while a recompute is slow (a loaded machine).
    const total = async () => (await (await t.request("/vote/results", { token: bob.token })).json()).results[0].totalVotes;
    await expect.poll(total, { timeout: 10_000, interval: 100 }).toBe(2);
  });

  it("a password change revokes only the changer's other sessions", async () => {
    const bobSecond = await t.login(bob.matricNumber, { dateOfBirth: 20020202 });
    const res = await t.request("/auth/password", { method: "PUT", token: bob.token, json: { currentPassword: "20020202", newPassword: "bob-secret-1" } });
    expect(res.status).toBe(200);
    expect((await t.request("/auth/profile", { token: bobSecond.token })).status).toBe(401);
    expect((await t.request("/auth/profile", { token: bob.token })).status).toBe(200);
    expect((await t.request("/auth/profile", { token: alice.token })).status).toBe(200);
  });

  it("voters cannot create, delete or moderate; admins cannot vote", async () => {
    const form = new FormData();
    form.set("name", "Mallory");
    form.set("positionId", positionId);
    form.set("photo", new Blob([TINY_PNG], { type: "image/png" }), "m.png");
    expect((await t.request("/admin/candidates", { method: "POST", token: alice.token, body: form })).status).toBe(403);
    expect((await t.request(`/admin/positions/${positionId}`, { method: "DELETE", token: alice.token })).status).toBe(403);
    expect((await t.request("/vote", { method: "POST", token: admin, json: { positionId, candidateId } })).status).toBe(403);
    const list = await (await t.request("/admin/candidates", { token: admin })).json();
    expect(list.map((c: { name: string }) => c.name)).not.toContain("Mallory");
  });
});

describe("'Close voting now' (it ends the election, so it is walked last)", () => {
  it("is 401 anonymous, 403 to voters, observers and officers, and changes nothing until the admin closes", async () => {
    const close = (token?: string) => t.request("/admin/election/close", { method: "POST", token });
    expect((await close()).status).toBe(401);
    for (const token of [bob.token, staff.observer, staff.officer]) expect((await close(token)).status).toBe(403);
    const open = await (await t.request("/admin/elections/current", { token: admin })).json();
    expect(open.closable).toBe(true);
    expect((await close(admin)).status).toBe(200);
    expect((await close(admin)).status).toBe(409);
  });
});
