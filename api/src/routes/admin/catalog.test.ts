import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { messages } from "@evoting/shared";
import sharp from "sharp";
import { chunk } from "../../services/election/png.ts";
import { createTestApp, TINY_PNG, type TestApp } from "../../test/harness.ts";

let t: TestApp;
let admin: string;
beforeEach(async () => {
  // A batch of 1: these tests read each vote in the tallies as soon as it is applied.
  t = await createTestApp({ ballotBatch: 1 });
  admin = await t.adminToken();
});
afterEach(async () => t.close());

const png = () => new Blob([TINY_PNG], { type: "image/png" });

describe("users", () => {
  it("creates a voter who can sign in by date of birth; duplicates are 409", async () => {
    const json = { name: "Ada Obi", matricNumber: "2020/5570123", dateOfBirth: 20020515 };
    const res = await t.request("/admin/users", { method: "POST", token: admin, json });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ name: "Ada Obi", matricNumber: "2020/5570123", role: "voter", hasPassword: false });
    const dup = await t.request("/admin/users", { method: "POST", token: admin, json: { ...json, name: "Other" } });
    expect(dup.status).toBe(409);
    expect((await dup.json()).message).toBe(messages.duplicateMatric);
    expect((await t.request("/auth/login", { method: "POST", json: { matricNumber: "2020/5570123", dateOfBirth: 20020515 } })).status).toBe(200);
  });

  it("validates with docs/product.md's messages", async () => {
    const cases: [unknown, string][] = [
      [{ matricNumber: "2020/5570123", dateOfBirth: 20020515 }, messages.nameRequired],
      [{ name: "A", dateOfBirth: 20020515 }, messages.matricRequired],
      [{ name: "A", matricNumber: "2020-5570123", dateOfBirth: 20020515 }, messages.matricFormat],
      [{ name: "A", matricNumber: "2020/5570123" }, messages.dobRequired],
      [{ name: "A", matricNumber: "2020/5570123", dateOfBirth: 2002051 }, messages.dobFormat],
      [{ name: "A", matricNumber: "2020/5570123", dateOfBirth: 20021345 }, messages.dobFormat],
    ];
    for (const [json, message] of cases) {
      const res = await t.request("/admin/users", { method: "POST", token: admin, json });
      expect(res.status).toBe(400);
      expect((await res.json()).message).toBe(message);
    }
  });
});

describe("positions", () => {
  it("creates, lists (with candidates) and stores times as UTC instants", async () => {
    const res = await t.request("/admin/positions", {
      method: "POST",
      token: admin,
      json: { title: "President", startTime: "2026-03-02T10:00:00+01:00", endTime: "2026-03-02T14:00:00+01:00" },
    });
    expect(res.status).toBe(201);
    const created = await res.json();
    expect(created).toMatchObject({ title: "President", startTime: "2026-03-02T09:00:00.000Z", endTime: "2026-03-02T13:00:00.000Z", candidates: [] });
    await t.createCandidate(admin, created._id, "Ada");
    const list = await (await t.request("/admin/positions", { token: admin })).json();
    expect(list).toHaveLength(1);
    expect(list[0].candidates.map((c: { name: string }) => c.name)).toEqual(["Ada"]);
  });

  it("refuses a missing title or times, and an end before the start", async () => {
    const post = (json: unknown) => t.request("/admin/positions", { method: "POST", token: admin, json });
    expect((await (await post({ startTime: "2026-03-02T10:00:00Z", endTime: "2026-03-02T11:00:00Z" })).json()).message).toBe(messages.positionTitleRequired);
    expect((await (await post({ title: "P", endTime: "2026-03-02T11:00:00Z" })).json()).message).toBe(messages.startTimeRequired);
    expect((await (await post({ title: "P", startTime: "2026-03-02T11:00:00Z", endTime: "" })).json()).message).toBe(messages.endTimeRequired);
    expect((await (await post({ title: "P", startTime: "2026-03-02T11:00:00Z", endTime: "2026-03-02T10:00:00Z" })).json()).message).toBe(messages.endAfterStart);
    expect((await post({ title: "P", startTime: "yesterday", endTime: "2026-03-02T10:00:00Z" })).status).toBe(400);
  });

  it("takes Allow abstain on create, off when omitted; refuses an unknown field on create and edit, storing nothing", async () => {
    const window = { startTime: "2026-03-02T10:00:00Z", endTime: "2026-03-02T11:00:00Z" };
    const post = (json: unknown) => t.request("/admin/positions", { method: "POST", token: admin, json });
    const withAbstain = await post({ title: "Treasurer", ...window, allowAbstain: true });
    expect(withAbstain.status).toBe(201);
    expect(await withAbstain.json()).toMatchObject({ title: "Treasurer", allowAbstain: true });
    expect(await (await post({ title: "Secretary", ...window })).json()).toMatchObject({ allowAbstain: false });
    expect((await post({ title: "Bad", ...window, allowAbstain: "yes" })).status).toBe(400);

    const before = await (await t.request("/admin/positions", { token: admin })).json();
    const secretary = before.find((p: { title: string }) => p.title === "Secretary");
    expect(Object.fromEntries(before.map((p: { title: string; allowAbstain: boolean }) => [p.title, p.allowAbstain]))).toEqual({ Treasurer: true, Secretary: false });
    const typo = await post({ title: "Typo", ...window, allowAbstian: true });
    expect(typo.status).toBe(400);
    expect((await typo.json()).message).toMatch(/allowAbstian/);
    const edit = await t.request(`/admin/positions/${secretary._id}`, { method: "PATCH", token: admin, json: { allowAbstian: true } });
    expect(edit.status).toBe(400);
    expect((await edit.json()).message).toMatch(/allowAbstian/);
    expect(await (await t.request("/admin/positions", { token: admin })).json()).toEqual(before);
  });

  it("a position holding ballots cannot be deleted (409, nothing changed); one without goes with its candidates", async () => {
    const { position, candidates } = await t.openElection(admin, ["Ada", "Grace"], "President");
    const other = await t.openElection(admin, ["Linus"], "Secretary");
    const voter = await t.createVoter(admin);
    expect((await t.request("/vote", { method: "POST", token: voter.token, json: { positionId: position._id, candidateId: candidates[0]._id } })).status).toBe(201);
    const list = await (await t.request("/admin/positions", { token: admin })).json();
    expect(list.map((p: { title: string; ballots: number }) => [p.title, p.ballots])).toEqual([
      ["President", 1],
      ["Secretary", 0],
    ]);

    const auditBefore = (await (await t.request("/admin/audit", { token: admin })).json()).total;
    const refused = await t.request(`/admin/positions/${position._id}`, { method: "DELETE", token: admin });
    expect(refused.status).toBe(409);
    expect((await refused.json()).message).toBe(messages.positionHasBallots);
    const results = await (await t.request("/vote/results", { token: admin })).json();
    expect(results.results.map((r: { positionTitle: string; totalVotes: number }) => [r.positionTitle, r.totalVotes])).toEqual([
      ["President", 1],
      ["Secretary", 0],
    ]);
    expect(results.totalVotesCast).toBe(1);
    const counts = await t.database.client.execute("SELECT (SELECT count(*) FROM ballots) AS b, (SELECT count(*) FROM participations) AS p, (SELECT count(*) FROM candidates) AS c");
    expect(counts.rows[0]).toMatchObject({ b: 1, p: 1, c: 3 });
    expect((await (await t.request("/admin/audit", { token: admin })).json()).total).toBe(auditBefore);

    const del = await t.request(`/admin/positions/${other.position._id}`, { method: "DELETE", token: admin });
    expect(del.status).toBe(200);
    expect((await del.json()).message).toBe(messages.deletePositionSuccess);
    expect((await (await t.request("/admin/candidates", { token: admin })).json()).map((c: { name: string }) => c.name)).toEqual(["Ada", "Grace"]);
    expect((await t.request(`/admin/positions/${other.position._id}`, { method: "DELETE", token: admin })).status).toBe(404);
  });

  it("a ballot still waiting for its batch holds the position too", async () => {
    await t.close();
    t = await createTestApp({ ballotBatch: 10 });
    admin = await t.adminToken();
    const { position, candidates } = await t.openElection(admin, ["Ada"], "President");
    const voter = await t.createVoter(admin);
    expect((await t.request("/vote", { method: "POST", token: voter.token, json: { positionId: position._id, candidateId: candidates[0]._id } })).status).toBe(201);
    const pending = await t.database.client.execute("SELECT count(*) AS n FROM pending_ballots");
    expect(pending.rows[0].n).toBe(1);
    expect((await t.request(`/admin/positions/${position._id}`, { method: "DELETE", token: admin })).status).toBe(409);
    expect((await (await t.request("/admin/positions", { token: admin })).json())[0].ballots).toBe(1);
  });
});

describe("candidates", () => {
  it("creates a candidate with a photo checked by its bytes and serves it with long cache and nosniff", async () => {
    const { position } = await t.openElection(admin, []);
    const c = await t.createCandidate(admin, position._id, "Ada", png());
    expect(c.photo).toMatch(/^\/api\/photos\/[0-9a-f-]{36}$/);
    const photo = await t.app.request(c.photo!);
    expect(photo.status).toBe(200);
    expect(photo.headers.get("content-type")).toBe("image/png");
    expect(photo.headers.get("x-content-type-options")).toBe("nosniff");
    expect(photo.headers.get("cache-control")).toContain("immutable");
    // Re-encoded from its pixels (services/election/images.ts): the same picture, not the same bytes.
    const served = Buffer.from(await photo.arrayBuffer());
    expect(await sharp(served).metadata()).toMatchObject({ format: "png", width: 1, height: 1 });
    const list = await (await t.request("/admin/candidates", { token: admin })).json();
    expect(list[0]).toMatchObject({ name: "Ada", positionId: position._id, positionTitle: "President", position: { _id: position._id, title: "President" } });
  });

  const upload = (fields: Record<string, string | Blob>) => {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.set(k, v);
    return t.request("/admin/candidates", { method: "POST", token: admin, body: form });
  };

  it("a PNG with HTML between its header and IEND is stored and served without the HTML", async () => {
    const { position } = await t.openElection(admin, []);
    // A tEXt chunk after IHDR: still a valid PNG, header and trailer intact.
    const text = chunk("tEXt", Buffer.from("Comment\0<html><script>alert(1)</script></html>", "latin1"));
    const polyglot = Buffer.concat([TINY_PNG.subarray(0, 33), text, TINY_PNG.subarray(33)]);
    const res = await upload({ name: "Mallory", positionId: position._id, photo: new Blob([polyglot], { type: "image/png" }) });
    expect(res.status).toBe(201);
    const served = Buffer.from(await (await t.app.request((await res.json()).photo)).arrayBuffer());
    expect(served.includes("<script")).toBe(false);
    expect((await sharp(served).metadata()).format).toBe("png");
  });

  it("refuses non-images, SVG, polyglots and oversized photos, storing nothing", async () => {
    const { position } = await t.openElection(admin, []);
    const svg = new Blob(['<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'], { type: "image/svg+xml" });
    const html = new Blob(["<html><script>alert(1)</script></html>"], { type: "image/png" });
    const polyglot = new Blob([TINY_PNG.subarray(0, 40), "<script>alert(1)</script>"], { type: "image/png" });
    for (const photo of [svg, html, polyglot]) {
      const res = await upload({ name: "Eve", positionId: position._id, photo });
      expect(res.status).toBe(400);
      expect((await res.json()).message).toBe(messages.photoInvalid);
    }
    const big = new Uint8Array(2 * 1024 * 1024 + 10);
    big.set(TINY_PNG);
    const tooBig = await upload({ name: "Eve", positionId: position._id, photo: new Blob([big], { type: "image/png" }) });
    expect(tooBig.status).toBe(413);
    expect((await tooBig.json()).message).toBe(messages.photoTooLarge);
    expect(await (await t.request("/admin/candidates", { token: admin })).json()).toEqual([]);
  });

  it("validates name and position, and refuses JSON bodies with 415", async () => {
    const { position } = await t.openElection(admin, []);
    expect((await (await upload({ positionId: position._id })).json()).message).toBe(messages.candidateNameRequired);
    expect((await (await upload({ name: "Ada" })).json()).message).toBe(messages.positionRequired);
    const missing = await upload({ name: "Ada", positionId: "no-such-position" });
    expect(missing.status).toBe(404);
    const json = await t.request("/admin/candidates", { method: "POST", token: admin, json: { name: "Ada", positionId: position._id } });
    expect(json.status).toBe(415);
  });

  it("deletes a candidate before any vote; once the position has a vote its ballot is frozen", async () => {
    const { position, candidates } = await t.openElection(admin, ["Ada", "Grace", "Linus"]);
    const ok = await t.request(`/admin/candidates/${candidates[2]._id}`, { method: "DELETE", token: admin });
    expect(ok.status).toBe(200);
    expect((await ok.json()).message).toBe(messages.deleteCandidateSuccess);
    expect((await t.request(`/admin/candidates/${candidates[2]._id}`, { method: "DELETE", token: admin })).status).toBe(404);
    const voter = await t.createVoter(admin);
    await t.request("/vote", { method: "POST", token: voter.token, json: { positionId: position._id, candidateId: candidates[0]._id } });
    const refused = await t.request(`/admin/candidates/${candidates[0]._id}`, { method: "DELETE", token: admin });
    expect(refused.status).toBe(409);
    expect((await refused.json()).message).toBe(messages.candidateHasVotes);
    const frozen = await t.request(`/admin/candidates/${candidates[1]._id}`, { method: "DELETE", token: admin });
    expect(frozen.status).toBe(409);
    expect((await frozen.json()).message).toBe(messages.ballotFrozen);
    const results = await (await t.request("/vote/results", { token: admin })).json();
    expect(results.results[0].breakdown).toEqual([
      expect.objectContaining({ name: "Ada", votes: 1 }),
      expect.objectContaining({ name: "Grace", votes: 0 }),
    ]);
  });
});

describe("authorization", () => {
  const adminRoutes: [string, string][] = [
    ["POST", "/admin/users"],
    ["POST", "/admin/positions"],
    ["POST", "/admin/candidates"],
    ["GET", "/admin/positions"],
    ["GET", "/admin/candidates"],
    ["DELETE", "/admin/positions/some-id"],
    ["DELETE", "/admin/candidates/some-id"],
    ["GET", "/admin/trustees"],
    ["POST", "/admin/trustees"],
    ["PUT", "/admin/positions/some-id/credentials"],
    ["POST", "/admin/positions/some-id/lock"],
    ["POST", "/admin/positions/some-id/partial-decryptions"],
  ];

  it("answers 401 to anonymous callers and 403 to voters on every admin route", async () => {
    const voter = await t.createVoter(admin);
    for (const [method, path] of adminRoutes) {
      const anon = await t.request(path, { method, json: method === "POST" ? {} : undefined });
      expect(anon.status, `${method} ${path} anonymous`).toBe(401);
      const asVoter = await t.request(path, { method, token: voter.token, json: method === "POST" ? {} : undefined });
      expect(asVoter.status, `${method} ${path} voter`).toBe(403);
      expect((await asVoter.json()).message).toBe(messages.adminOnly);
    }
  });
});
