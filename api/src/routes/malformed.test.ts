import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../test/harness.ts";

let t: TestApp;
let admin: string;
let voter: string;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
  voter = (await t.createVoter(admin)).token;
});
afterAll(async () => t.close());

/** Every JSON route, with the token that gets it past authentication. */
const jsonRoutes = (): [string, string, () => string | undefined][] => [
  ["POST", "/auth/check-user", () => undefined],
  ["POST", "/auth/login", () => undefined],
  ["PUT", "/auth/email", () => voter],
  ["PUT", "/auth/password", () => voter],
  ["POST", "/admin/users", () => admin],
  ["POST", "/admin/positions", () => admin],
  ["POST", "/vote", () => voter],
];

const wrongTypes: unknown[] = [null, 42, "text", [], [1, 2], { matricNumber: 5, password: [], dateOfBirth: {}, name: {}, title: 1, startTime: true, endTime: [], email: 9, newPassword: 1, positionId: 3, candidateId: null }];

describe("malformed input never gets a 500", () => {
  it("answers 400 with a message to malformed JSON on every JSON route", async () => {
    for (const [method, path, token] of jsonRoutes()) {
      const res = await t.request(path, { method, token: token(), headers: { "content-type": "application/json" }, body: "{not json" });
      expect(res.status, `${method} ${path}`).toBe(400);
      expect(typeof (await res.json()).message).toBe("string");
    }
  });

  it("answers 400 with a message to wrong types on every JSON route", async () => {
    for (const [method, path, token] of jsonRoutes()) {
      for (const json of wrongTypes) {
        const res = await t.request(path, { method, token: token(), json });
        expect(res.status, `${method} ${path} ${JSON.stringify(json)}`).toBe(400);
        const body = await res.json();
        expect(body.message.length).toBeGreaterThan(0);
      }
    }
  });

  it("answers 415 to a non-JSON body and 413 to an oversized one", async () => {
    for (const [method, path, token] of jsonRoutes()) {
      const form = await t.request(path, { method, token: token(), headers: { "content-type": "text/plain" }, body: "hello" });
      expect(form.status, `${method} ${path}`).toBe(415);
      const huge = await t.request(path, { method, token: token(), json: { name: "x".repeat(200_000) } });
      expect(huge.status, `${method} ${path}`).toBe(413);
    }
  });

  it("answers JSON 404 for unknown API paths", async () => {
    const res = await t.request("/no/such/thing");
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ message: "Not found" });
  });
});
