/**
 * The hot routes' fast path (http/pipeline.ts): over a real port each answer, refusals
 * included, must be the answer Hono gives in process in status, body and every header; what
 * the fast path leaves to Hono (another path or method, a chunked body, an answer to gzip)
 * must reach Hono and be answered as before.
 */
import { request as httpRequest, createServer, type Server } from "node:http";
import { randomUUID } from "node:crypto";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { SPEC_ELECTION, messages, type Results } from "@evoting/shared";
import { createTestApp, type TestApp } from "../test/harness.ts";
import { Hono } from "hono";
import { createApp } from "../app.ts";
import { nodeListener } from "./pipeline.ts";

let t: TestApp;
let server: Server;
let base: string;
/** Requests that reached Hono through the Node listener. */
const reachedHono: string[] = [];

beforeAll(async () => {
  // A batch of 1: these tests read each vote in the tallies as soon as it is applied.
  t = await createTestApp({ ballotBatch: 1 });
  const fetch: typeof t.app.fetch = (req, ...rest) => {
    const url = new URL(req.url);
    reachedHono.push(`${req.method} ${url.pathname}${url.search}`);
    return t.app.fetch(req, ...rest);
  };
  server = createServer(await nodeListener({ fetch, router: t.app.router, hotRoutes: t.app.hotRoutes }, t.deps));
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((ok) => server.close(ok));
  await t.close();
});

/**
 * Status, headers and body, over the port and in process. Left out: what Node's transport
 * adds itself (Date, Connection, Keep-Alive, and Transfer-Encoding where the answer's length
 * is not declared, as on Hono's error answers; Content-Length where only the adaptor counted
 * the body).
 */
async function bothWays(path: string, init: RequestInit = {}, only: { node?: true; inProcess?: true } = {}) {
  const shape = async (res: Response) => ({
    status: res.status,
    headers: Object.fromEntries([...res.headers].filter(([name]) => !["date", "connection", "keep-alive", "transfer-encoding"].includes(name))),
    body: init.method === "HEAD" ? "" : Buffer.from(await res.arrayBuffer()).toString("base64"),
  });
  reachedHono.length = 0;
  const none = { status: 0, headers: {} as Record<string, string>, body: "" };
  const overNode = only.inProcess ? none : await shape(await fetch(`${base}${path}`, init));
  const inProcess = only.node ? none : await shape(await t.app.request(path, init));
  if (!("content-length" in inProcess.headers)) delete overNode.headers["content-length"];
  return { overNode, inProcess, viaHono: reachedHono.length > 0 };
}

const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

it("serves results and their refusals itself, as Hono would; another path or method goes to Hono unchanged", async () => {
  const admin = await t.adminToken();
  const { position, candidates } = await t.openElection(admin);
  const voter = await t.createVoter(admin);
  expect((await t.request("/vote", { method: "POST", token: voter.token, json: { positionId: position._id, candidateId: candidates[1]._id } })).status).toBe(201);

  for (const [who, token] of [["voter", voter.token], ["admin", admin]] as const) {
    const { overNode, inProcess, viaHono } = await bothWays("/api/vote/results", bearer(token));
    expect(overNode, who).toEqual(inProcess);
    expect(overNode.status).toBe(200);
    expect(viaHono, `${who}: answered before Hono`).toBe(false);
    const results = JSON.parse(Buffer.from(overNode.body, "base64").toString()) as Results;
    expect(results.results[0].breakdown.find((b) => b.candidateId === candidates[1]._id)?.votes).toBe(1);
  }

  const refused: [string, RequestInit][] = [
    ["no token", {}],
    ["an unknown token", bearer("not-a-session")],
    ["not a bearer token", { headers: { authorization: `Basic ${voter.token}` } }],
  ];
  for (const [what, init] of refused) {
    const { overNode, inProcess, viaHono } = await bothWays("/api/vote/results", init);
    expect(viaHono, what).toBe(false);
    expect(overNode.status, what).toBe(401);
    expect(overNode, what).toEqual(inProcess);
  }

  const passedOn: [string, string, RequestInit][] = [
    ["a query string", "/api/vote/results?x=1", bearer(voter.token)],
    ["HEAD", "/api/vote/results", { method: "HEAD", ...bearer(voter.token) }],
    ["another route", "/api/vote/my-votes", bearer(voter.token)],
  ];
  for (const [what, path, init] of passedOn) {
    const { overNode, inProcess, viaHono } = await bothWays(path, init);
    expect(viaHono, what).toBe(true);
    expect(overNode, what).toEqual(inProcess);
  }

  // A logout ends the session for the hot path at once (the session cache is emptied by the write).
  const other = await t.createVoter(admin, "20010101");
  expect((await bothWays("/api/vote/results", bearer(other.token))).viaHono).toBe(false);
  expect((await t.request("/auth/logout", { method: "POST", token: other.token })).status).toBe(204);
  const afterLogout = await bothWays("/api/vote/results", bearer(other.token));
  expect(afterLogout.overNode.status).toBe(401);
  expect(afterLogout.overNode).toEqual(afterLogout.inProcess);
});

it("refuses withheld results (403) itself and leaves answers large enough to gzip to Hono", async () => {
  const admin = await t.adminToken();
  const voter = await t.createVoter(admin, "19990909");
  const now = t.clock.now();
  const settings = {
    ...SPEC_ELECTION,
    startTime: new Date(now - 3_600_000).toISOString(),
    endTime: new Date(now + 3_600_000).toISOString(),
    resultsVisibility: "after-close",
  };
  expect((await t.request("/admin/election", { method: "PUT", token: admin, json: settings })).status).toBe(200);
  const hidden = await bothWays("/api/vote/results", bearer(voter.token));
  expect(hidden.overNode.status).toBe(403);
  expect(hidden.viaHono).toBe(false);
  expect(hidden.overNode).toEqual(hidden.inProcess);
  // Admins still see them, from the hot path.
  expect((await bothWays("/api/vote/results", bearer(admin))).viaHono).toBe(false);

  // 16 KB of results JSON or more is gzipped by Hono's middleware for a client that accepts it.
  await t.openElection(admin, Array.from({ length: 120 }, (_, i) => `${String(i).padStart(3, "0")} ${"Long Candidate Name ".repeat(5)}`.slice(0, 120)), "Senate");
  const large = await bothWays("/api/vote/results", { headers: { authorization: `Bearer ${admin}`, "accept-encoding": "gzip" } });
  expect(large.viaHono).toBe(true);
  expect(large.overNode.status).toBe(200);
  expect(large.overNode.headers["content-encoding"]).toBe("gzip");
});

describe("POST /api/vote", () => {
  /** A vote over the port (`node`) or in process; the same request either way. */
  const post = (token: string, body: unknown, headers: Record<string, string> = {}): RequestInit => ({
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  /** Vote-specific values (ids, receipt, time) replaced by their types, to compare two voters' answers. */
  const shapeOf = (body: string): unknown =>
    JSON.parse(Buffer.from(body, "base64").toString(), (key, value) => (["_id", "id", "receipt", "votedAt", "createdAt", "voterId"].includes(key) ? typeof value : value));

  it("casts, replays and refuses as the route does, before Hono", async () => {
    const admin = await t.adminToken();
    const { position, candidates } = await t.openElection(admin, ["Ada", "Grace"], "Treasurer");
    const [a, b] = [await t.createVoter(admin, "20000101"), await t.createVoter(admin, "20000102")];
    const ballot = { positionId: position._id, candidateId: candidates[0]._id };
    const key = randomUUID();

    // First vote: over the port for one voter, in process for the other; same status, headers, shape.
    const overNode = await bothWays("/api/vote", post(a.token, ballot, { "idempotency-key": key }), { node: true });
    expect(overNode.viaHono).toBe(false);
    const inProcess = await bothWays("/api/vote", post(b.token, ballot, { "idempotency-key": key }), { inProcess: true });
    expect(overNode.overNode.status).toBe(201);
    expect(overNode.overNode.headers).toEqual(inProcess.inProcess.headers);
    expect(shapeOf(overNode.overNode.body)).toEqual(shapeOf(inProcess.inProcess.body));
    // Stored, through the same code as the route: the voter's own votes show it.
    const mine = (await (await t.request("/vote/my-votes", { token: a.token })).json()) as { positionId: string; candidateId: string }[];
    expect(mine.filter((v) => v.positionId === position._id).map((v) => v.candidateId)).toEqual([candidates[0]._id]);

    // A replay over the port answers the first answer again, byte for byte.
    const replay = await bothWays("/api/vote", post(a.token, ballot, { "idempotency-key": key }), { node: true });
    expect(replay.viaHono).toBe(false);
    expect(replay.overNode).toEqual(overNode.overNode);

    // Refusals the route makes: written as the error handler writes them, identical both ways.
    const refusals: [string, RequestInit][] = [
      ["already voted", post(a.token, { positionId: position._id, candidateId: candidates[1]._id })],
      ["key reused for another ballot", post(a.token, { positionId: position._id, candidateId: candidates[1]._id }, { "idempotency-key": key })],
      ["no such position", post(a.token, { positionId: "nope", candidateId: candidates[0]._id })],
      ["candidate of another position", post(b.token, { positionId: "nope", candidateId: "nope" })],
      ["bad idempotency key", post(a.token, ballot, { "idempotency-key": "not-a-uuid" })],
    ];
    for (const [what, init] of refusals) {
      const both = await bothWays("/api/vote", init);
      expect(both.viaHono, what).toBe(false);
      expect(both.overNode.status, what).toBeGreaterThanOrEqual(400);
      expect(both.overNode, what).toEqual(both.inProcess);
    }
  });

  it("refuses what the route refuses before Hono, byte for byte as Hono does; a chunked body goes to Hono", async () => {
    const admin = await t.adminToken();
    const { position, candidates } = await t.openElection(admin, ["Ada", "Grace"], "Auditor");
    const voter = await t.createVoter(admin, "20000103");
    const ballot = { positionId: position._id, candidateId: candidates[0]._id };
    const refused: [string, RequestInit][] = [
      ["malformed JSON", post(voter.token, "{")],
      ["an empty body", post(voter.token, "")],
      ["failing the schema", post(voter.token, { positionId: position._id })],
      ["JSON that is not an object", post(voter.token, "[1]")],
      ["a byte-order mark before the JSON, and failing the schema", post(voter.token, `\uFEFF${JSON.stringify({ positionId: position._id })}`)],
      ["another media type", { ...post(voter.token, ballot), headers: { authorization: `Bearer ${voter.token}`, "content-type": "text/plain" } }],
      ["no token", { ...post(voter.token, ballot), headers: { "content-type": "application/json" } }],
      ["an admin", post(admin, ballot)],
      ["too large", post(voter.token, { ...ballot, pad: "x".repeat(70 * 1024) })],
      ["too large and no token", { ...post(voter.token, { ...ballot, pad: "x".repeat(70 * 1024) }), headers: { "content-type": "application/json" } }],
      ["an admin sending another media type (the role comes first)", { ...post(admin, ballot), headers: { authorization: `Bearer ${admin}`, "content-type": "text/plain" } }],
    ];
    for (const [what, init] of refused) {
      const both = await bothWays("/api/vote", init);
      expect(both.viaHono, what).toBe(false);
      expect(both.overNode.status, what).toBeGreaterThanOrEqual(400);
      expect(both.overNode, what).toEqual(both.inProcess);
    }

    // A failure no rule explains (the session read, here) is answered as Hono's error handler
    // answers it (500, no detail), not with a dropped connection.
    const stranger = post("a-token-this-process-has-not-seen", ballot);
    const get = t.database.get;
    t.database.get = async () => {
      throw new Error("disk gone (test)");
    };
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const failed = await bothWays("/api/vote", stranger);
      expect(failed.viaHono).toBe(false);
      expect(failed.overNode.status).toBe(500);
      expect(failed.overNode).toEqual(failed.inProcess);
      expect(JSON.parse(Buffer.from(failed.overNode.body, "base64").toString())).toEqual({ message: messages.internalError });
    } finally {
      t.database.get = get;
      errors.mockRestore();
    }

    // A body with no declared length (chunked) goes to Hono, which reads and counts it: the vote counts.
    reachedHono.length = 0;
    const chunked = await new Promise<{ status: number; body: string }>((ok, fail) => {
      const req = httpRequest(`${base}/api/vote`, { method: "POST", headers: { authorization: `Bearer ${voter.token}`, "content-type": "application/json" } }, (res) => {
        let body = "";
        res.on("data", (d) => (body += d));
        res.on("end", () => ok({ status: res.statusCode ?? 0, body }));
      });
      req.on("error", fail);
      req.write(JSON.stringify(ballot).slice(0, 10));
      req.end(JSON.stringify(ballot).slice(10));
    });
    expect(chunked.status).toBe(201);
    expect(reachedHono).toEqual(["POST /api/vote"]);
    // Its vote stands: the same ballot again through the hot path is 'already voted'.
    const again = await bothWays("/api/vote", post(voter.token, ballot), { node: true });
    expect(again.viaHono).toBe(false);
    expect(again.overNode.status).toBe(409);
  });
});

it("refuses a polling-station device's token (403) on votes and results, as Hono does", async () => {
  const admin = await t.adminToken();
  const { position, candidates } = await t.openElection(admin, ["Ada", "Grace"], "Station Check");
  const matricNumber = "2019/5570990";
  expect((await t.request("/admin/users", { method: "POST", token: admin, json: { name: "Officer", matricNumber, role: "officer", password: "officer-secret" } })).status).toBe(201);
  const officer = await t.login(matricNumber, { password: "officer-secret" });
  const station = (await (await t.request("/admin/stations", { method: "POST", token: admin, json: { name: "Hall" } })).json()) as { _id: string };
  expect((await t.request(`/admin/stations/${station._id}/officers`, { method: "POST", token: admin, json: { matricNumber } })).status).toBe(201);
  const opened = await t.request("/station/sessions", { method: "POST", token: officer.token, json: { stationId: station._id, password: "officer-secret" } });
  const { token } = (await opened.json()) as { token: string };

  const results = await bothWays("/api/vote/results", bearer(token));
  expect([results.overNode.status, results.viaHono]).toEqual([403, false]);
  expect(results.overNode).toEqual(results.inProcess);
  const body = JSON.stringify({ positionId: position._id, candidateId: candidates[0]._id });
  const cast = await bothWays("/api/vote", { method: "POST", body, headers: { authorization: `Bearer ${token}`, "content-type": "application/json" } });
  expect([cast.overNode.status, cast.viaHono]).toEqual([403, false]);
  expect(cast.overNode).toEqual(cast.inProcess);
});

describe("the listener's start-up check", () => {
  it("refuses to start when Hono would run a middleware before a hot route that the fast path does not", async () => {
    const app = createApp(t.deps);
    const served = { router: app.router, hotRoutes: app.hotRoutes };
    // As built, it starts.
    await expect(nodeListener({ ...served, fetch: app.fetch }, t.deps)).resolves.toBeTypeOf("function");

    // One more middleware in front of everything (say, one added to app.ts): the fast path would skip it.
    const wrapped = new Hono().use("*", async (_c, next) => next()).route("/", app);
    await expect(nodeListener({ fetch: wrapped.fetch, router: wrapped.router, hotRoutes: app.hotRoutes }, t.deps)).rejects.toThrow(
      "POST /api/vote: Hono runs 1 middleware the fast path does not",
    );

    // A definition mounted somewhere else than its path: the two ways would serve different URLs.
    const moved = new Hono().route("/v2", app);
    await expect(nodeListener({ fetch: moved.fetch, router: moved.router, hotRoutes: app.hotRoutes }, t.deps)).rejects.toThrow(
      "POST /api/vote: Hono does not serve this route from its definition",
    );
  });
});
