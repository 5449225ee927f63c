/**
 * Smaller holes an insider could use: a roll file built to hold the event loop, an import that
 * races a delete, a date-of-birth change that leaves sessions alive, and a NUL in a path.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { MAX_ROLL_HEADER_CELLS, rollMessages } from "@evoting/shared";
import { createApp } from "../../app.ts";
import { applyRollPlan, planRollImport } from "../../services/roll/roll-import.ts";
import { createTestApp, type TestApp } from "../../test/harness.ts";

let t: TestApp;
beforeEach(async () => (t = await createTestApp()));
afterEach(async () => t.close());

const importCsv = (admin: string, csv: string, dryRun = true) =>
  t.request(`/admin/voters/import?dryRun=${dryRun ? 1 : 0}`, { method: "POST", token: admin, headers: { "content-type": "text/csv" }, body: csv });

it("a roll whose header has far more cells than columns is refused with a clear 400 before any row is read", async () => {
  const admin = await t.adminToken();
  // 515 KB: the file, 400,000 empty header cells and 4,000 rows.
  const header = "matricNumber,name,dateOfBirth" + ",".repeat(400_000);
  const rows = Array.from({ length: 4_000 }, (_, i) => `2020/557${String(i).padStart(4, "0")},Voter ${i},20020515`);
  const res = await importCsv(admin, [header, ...rows].join("\n"));
  expect(res.status).toBe(400);
  const body = (await res.json()) as { message: string };
  expect(body.message).toBe(rollMessages.headerTooWide(MAX_ROLL_HEADER_CELLS));
  // A header with a few trailing empty cells (spreadsheets add them) still reads.
  const ok = await importCsv(admin, "matricNumber,name,dateOfBirth,,,\n2020/5570999,Ada,20020515\n");
  expect(await ok.json()).toMatchObject({ created: 1, errors: [] });
});

it("an import that races a voter's delete writes nothing (the roll changed meanwhile)", async () => {
  const admin = await t.adminToken();
  const voters = [];
  for (let i = 0; i < 3; i++) voters.push(await t.createVoter(admin));
  const csv = ["matricNumber,name,dateOfBirth", ...voters.map((v, i) => `${v.matricNumber},Renamed ${i},${v.dateOfBirth}`)].join("\n");
  // The plan is read, then a voter goes before it is applied (as a delete between the two would).
  const plan = await planRollImport(t.database, t.deps.keys, csv, t.clock.now());
  expect(plan.report).toMatchObject({ updated: 3, errors: [] });
  const gone = (await t.database.client.execute({ sql: "SELECT id FROM users WHERE matric_number = ?", args: [voters[1].matricNumber] })).rows[0].id;
  expect((await t.request(`/admin/voters/${gone}`, { method: "DELETE", token: admin })).status).toBe(204);
  expect(await applyRollPlan(t.deps, plan, [])).toBe(false);
  const renamed = await t.database.client.execute("SELECT count(*) AS n FROM users WHERE name LIKE 'Renamed%'");
  expect(renamed.rows[0].n).toBe(0);
});

it("changing a voter's date of birth ends their sessions", async () => {
  const admin = await t.adminToken();
  const voter = await t.createVoter(admin);
  expect((await t.request("/vote/my-votes", { token: voter.token })).status).toBe(200);
  const id = (await t.database.client.execute({ sql: "SELECT id FROM users WHERE matric_number = ?", args: [voter.matricNumber] })).rows[0].id;
  expect((await t.request(`/admin/voters/${id}`, { method: "PATCH", token: admin, json: { dateOfBirth: 19991231 } })).status).toBe(200);
  expect((await t.request("/vote/my-votes", { token: voter.token })).status).toBe(401);
  // A name change alone leaves them signed in.
  const again = await t.login(voter.matricNumber, { dateOfBirth: 19991231 });
  expect((await t.request(`/admin/voters/${id}`, { method: "PATCH", token: admin, json: { name: "New Name" } })).status).toBe(200);
  expect((await t.request("/vote/my-votes", { token: again.token })).status).toBe(200);
});

it("a NUL in a path is bad input (4xx), never a 500", async () => {
  const dir = mkdtempSync(join(tmpdir(), "evoting-nul-"));
  try {
    writeFileSync(join(dir, "index.html"), "<!doctype html><title>x</title>");
    const app = createApp(t.deps, { staticRoot: dir });
    for (const path of ["/%00", "/a%00.js", "/api/%00", "/%00/x"]) {
      const res = await app.request(path);
      expect(res.status, path).toBeGreaterThanOrEqual(400);
      expect(res.status, path).toBeLessThan(500);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
