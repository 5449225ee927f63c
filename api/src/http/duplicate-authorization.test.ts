/**
 * A request with more than one Authorization header is refused (401) on both paths: the
 * listener's fast path (Node keeps the first of duplicates) and Hono (which sees them joined).
 */
import { request as httpRequest } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../test/harness.ts";

let t: TestApp;
afterEach(async () => t.close());

/** A raw request with the header lines as given (fetch would join them into one). */
function raw(origin: string, path: string, method: string, headers: Record<string, string | string[]>, body?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${origin}${path}`, { method, headers }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", reject);
    req.end(body);
  });
}

describe("two Authorization headers", () => {
  it("are refused with 401 on the fast path and on Hono's, and nothing is stored", async () => {
    t = await createTestApp();
    const admin = await t.adminToken();
    const { position, candidates } = await t.openElection(admin);
    const voter = await t.createVoter(admin);
    const other = await t.createVoter(admin);
    const origin = new URL((await t.request("/health")).url).origin;
    const headers = { authorization: [`Bearer ${voter.token}`, `Bearer ${other.token}`], "content-type": "application/json" };
    // POST /api/vote is served by the fast path; GET /api/vote/my-votes by Hono.
    expect(await raw(origin, "/api/vote", "POST", headers, JSON.stringify({ positionId: position._id, candidateId: candidates[0]._id }))).toBe(401);
    expect(await raw(origin, "/api/vote/my-votes", "GET", headers)).toBe(401);
    expect(Number((await t.database.client.execute("SELECT count(*) AS n FROM participations")).rows[0].n)).toBe(0);
  });
});
