/**
 * The server log (log.ts, http/request-log.ts): one line per request with its id, route,
 * status and duration, through Hono and through the production listener's fast path alike;
 * and no line holds a token, a password, a date of birth, a receipt or what a voter chose.
 */
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { listen } from "./http/pipeline.ts";
import { createLogger } from "./log.ts";
import { ADMIN, createTestApp, type TestApp } from "./test/harness.ts";

let t: TestApp;
let lines: string[];
let server: Server | null = null;
beforeEach(async () => {
  lines = [];
  t = await createTestApp({ config: { log: createLogger("trace", { write: (line: string) => void lines.push(line) }) } });
});
afterEach(async () => {
  await new Promise((done) => (server ? server.close(done) : done(undefined)));
  server = null;
  await t.close();
});

const parsed = () => lines.map((l) => JSON.parse(l) as Record<string, unknown>);

describe("the server log", () => {
  it("logs each request once with an id, the route pattern, the status and the duration", async () => {
    const admin = await t.adminToken();
    const { position } = await t.openElection(admin);
    await t.request(`/admin/positions/${position._id}`, { method: "PATCH", token: admin, json: { title: "Chair" } });
    await t.request("/nowhere");
    const requests = parsed().filter((l) => l.msg === "request");
    expect(requests.map((r) => [r.method, r.route, r.status])).toEqual([
      ["POST", "/api/auth/login", 200],
      ["POST", "/api/admin/positions", 201],
      ["POST", "/api/admin/candidates", 201],
      ["POST", "/api/admin/candidates", 201],
      ["PATCH", "/api/admin/positions/:id", 200],
      ["GET", "/api/*", 404],
    ]);
    for (const r of requests) {
      expect(r.reqId).toMatch(/^[0-9a-f]{6}-[0-9a-z]+$/);
      expect(r.ms).toBeTypeOf("number");
      expect(typeof r.time).toBe("number");
    }
    expect(new Set(requests.map((r) => r.reqId)).size).toBe(requests.length);
  });

  it("holds no token, password, date of birth, receipt or choice, for a sign-in and a vote over a real port", async () => {
    const admin = await t.adminToken();
    const { position, candidates } = await t.openElection(admin, ["Ada", "Grace"]);
    const voter = await t.createVoter(admin, "20020515");
    server = await listen(t.app, t.deps, { port: 0, hostname: "127.0.0.1" });
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;

    const wrong = await fetch(`${base}/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ matricNumber: ADMIN.matricNumber, password: "not-the-password-7" }) });
    expect(wrong.status).toBe(401);
    const signIn = await fetch(`${base}/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ matricNumber: voter.matricNumber, dateOfBirth: 20020515 }) });
    const { token } = (await signIn.json()) as { token: string };
    const key = crypto.randomUUID();
    const chosen = candidates[1];
    const vote = await fetch(`${base}/vote`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}`, "idempotency-key": key },
      body: JSON.stringify({ positionId: position._id, candidateId: chosen._id }),
    });
    expect(vote.status).toBe(201);
    const { receipt } = (await vote.json()) as { receipt: string };
    const refused = await fetch(`${base}/vote`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify({ positionId: position._id, candidateId: candidates[0]._id }),
    });
    expect(refused.status).toBe(409);
    await fetch(`${base}/vote/my-votes`, { headers: { authorization: `Bearer ${token}` } });
    await fetch(`${base}/vote/results`, { headers: { authorization: `Bearer ${token}` } });
    const ticket = (await (await fetch(`${base}/vote/chat-token`, { headers: { authorization: `Bearer ${token}` } })).json()) as { token: string };
    await fetch(`${base}/realtime/results?token=${encodeURIComponent(ticket.token)}`, { signal: AbortSignal.timeout(200) }).catch(() => {});
    await t.deps.mixer.mix();

    const requests = parsed().filter((l) => l.msg === "request");
    // The vote was answered by the listener's fast path, the refusal too; both logged.
    expect(requests.filter((r) => r.route === "/api/vote").map((r) => r.status)).toEqual([201, 409]);
    expect(requests.some((r) => r.route === "/api/vote/results" && r.status === 200)).toBe(true);

    const text = lines.join("");
    const secrets = {
      token,
      admin: admin,
      "stream token": ticket.token,
      password: ADMIN.password,
      "wrong password": "not-the-password-7",
      "date of birth": "20020515",
      "date of birth, ISO": "2002-05-15",
      receipt,
      "idempotency key": key,
      "chosen candidate id": chosen._id,
      "chosen candidate name": chosen.name,
      "other candidate id": candidates[0]._id,
      voter: voter.matricNumber,
    };
    for (const [what, value] of Object.entries(secrets)) expect(text.includes(value), `${what} in the log`).toBe(false);
    expect(text).not.toMatch(/"(user|userId|voterId|ip|address|candidateId|choice)"/);
  });

  it("logs an unexpected failure with its request's id and the error, and answers 500 without detail", async () => {
    const admin = await t.adminToken();
    t.deps.results.bytesFor = async () => {
      throw new Error("the results snapshot is unreadable");
    };
    const res = await t.request("/vote/results", { token: admin });
    expect(res.status).toBe(500);
    expect(JSON.stringify(await res.json())).not.toContain("unreadable");
    const failure = parsed().find((l) => l.level === 50)!;
    expect(failure).toMatchObject({ msg: "unhandled error", err: { message: "the results snapshot is unreadable" } });
    const request = parsed().find((l) => l.msg === "request" && l.route === "/api/vote/results")!;
    expect(request.status).toBe(500);
    expect(failure.reqId).toBe(request.reqId);
  });
});
