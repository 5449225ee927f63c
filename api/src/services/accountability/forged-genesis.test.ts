/**
 * An entry inserted before the chain's first (seq 0 or below) is shown by the Audit Log page
 * and its CSV, so verification must cover it too; and the table refuses such a row at all.
 */
import { afterEach, beforeEach, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/harness.ts";
import { entryHash, GENESIS_HASH } from "./audit-log.ts";

let t: TestApp;
beforeEach(async () => (t = await createTestApp()));
afterEach(async () => t.close());

const forged = { id: "forged-genesis", at: Date.parse("2026-03-01T08:00:00Z"), actor: { id: null, name: "Returning Officer", matricNumber: "0000/5570000" }, action: "election.update", target: "election", summary: "Results published early", address: "127.0.0.1" };
const insertForged = (seq: number) =>
  t.database.client.execute({
    sql: `INSERT INTO audit_log (seq, id, at, actor_id, actor_name, actor_matric, action, target, summary, address, prev_hash, hash)
          VALUES (?, ?, ?, NULL, ?, ?, ?, ?, ?, ?, ?, ?)`,
    args: [seq, `${forged.id}-${seq}`, forged.at, forged.actor.name, forged.actor.matricNumber, forged.action, forged.target, forged.summary, forged.address, GENESIS_HASH, entryHash(GENESIS_HASH, { ...forged, id: `${forged.id}-${seq}` })],
  });

it("the schema refuses an audit entry numbered below 1", async () => {
  await t.adminToken(); // one real entry (the sign-in)
  await expect(insertForged(0)).rejects.toThrow(/CHECK constraint/);
  await expect(insertForged(-5)).rejects.toThrow(/CHECK constraint/);
  expect((await t.database.client.execute("SELECT count(*) AS n FROM audit_log WHERE seq < 1")).rows[0].n).toBe(0);
});

it("every entry the Audit Log lists is one verification walked: a forged genesis is named", async () => {
  const admin = await t.adminToken();
  // Someone editing a copy of the file can drop the CHECK; here it is only switched off.
  await t.database.client.execute("PRAGMA ignore_check_constraints = ON");
  await insertForged(0);
  await t.database.client.execute("PRAGMA ignore_check_constraints = OFF");

  const page = (await (await t.request("/admin/audit", { token: admin })).json()) as { items: { seq: number }[] };
  expect(page.items.map((e) => e.seq)).toContain(0);
  const csv = await (await t.request("/admin/audit/export.csv", { token: admin })).text();
  expect(csv).toContain("Results published early");

  const verify = (await (await t.request("/admin/audit/verify", { token: admin })).json()) as { ok: boolean; problems: { seq: number; problem: string }[] };
  expect(verify.ok).toBe(false);
  expect(verify.problems).toContainEqual(expect.objectContaining({ seq: 0, problem: expect.stringMatching(/before the first entry of the chain/) }));
});
