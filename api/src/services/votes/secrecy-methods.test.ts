/**
 * Ballot secrecy for every ballot method with abstentions (docs/counting.md): a ranking of
 * one candidate, a ranking of all four and an abstention must leave records of one length, or a
 * backup copy would tell how many candidates a voter ranked, or that they abstained (and, with
 * few voters per length, whom). Voters rank 1 to 4 candidates on a ranked position, mark 1 to 3
 * on a three-seat position, choose a candidate on a single-choice one and answer a referendum,
 * or abstain on all four; from a backup copy, no column or length of any table naming a voter
 * predicts what they did better than chance (the same probe as secrecy.test.ts), and every
 * stored ballot and sealed choice of a position has one length.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createClient } from "@libsql/client";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backupDatabase } from "../../scripts/backup.ts";
import { createTestApp, type TestApp } from "../../test/harness.ts";
import { backupLeaks } from "../../test/secrecy-probe.ts";

const HOUR = 3_600_000;
const NAMES = ["Al", "Grace Hopper", "Margaret Heafield Hamilton", "Bartholomew Montgomery-Featherstonehaugh III"];
const VOTERS = 60;
/** A voter's label: 0 abstains everywhere, 1-4 marks that many (at most the seats) and picks a candidate, yes or no. */
const LABELS = NAMES.length + 1;

let t: TestApp;
let dir: string;
let backup: string;
const voters = new Map<string, { matric: string; label: string }>();
const order: string[] = [];
const positionIds: string[] = [];

beforeAll(async () => {
  t = await createTestApp({ config: { mixer: { immediate: false, intervalMs: 3_600_000 } } });
  dir = mkdtempSync(join(tmpdir(), "evoting-secrecy-methods-"));
  const admin = await t.adminToken();
  const now = t.clock.now();
  const window = { startTime: new Date(now - HOUR).toISOString(), endTime: new Date(now + HOUR).toISOString() };
  const positions = [];
  for (const [title, fields] of [
    ["Chair", { method: "ranked", seats: 1 }],
    ["Class Representatives", { method: "multi", seats: 3 }],
    ["Treasurer", { method: "single" }],
    ["Constitution", { method: "referendum", question: "Adopt the new constitution?" }],
  ] as const) {
    const res = await t.request("/admin/positions", { method: "POST", token: admin, json: { title, ...window, ...fields } });
    expect(res.status).toBe(201);
    const position = (await res.json()) as { _id: string };
    expect((await t.request(`/admin/positions/${position._id}`, { method: "PATCH", token: admin, json: { allowAbstain: true } })).status).toBe(200);
    const ids = [];
    if (fields.method !== "referendum") for (const name of NAMES) ids.push((await t.createCandidate(admin, position._id, name))._id);
    positions.push({ id: position._id, ids });
    positionIds.push(position._id);
  }
  for (let i = 0; i < VOTERS; i++) {
    const voter = await t.createVoter(admin);
    const userId = (await t.database.client.execute({ sql: "SELECT id FROM users WHERE matric_number = ?", args: [voter.matricNumber] })).rows[0].id as string;
    // Pairs of voters mark alike so both halves of the probe's split see every length.
    const marks = Math.floor(i / 2) % LABELS;
    voters.set(userId, { matric: voter.matricNumber, label: String(marks) });
    order.push(userId);
    const [ranked, multi, single, referendum] = positions;
    const vote = (json: object, key?: string) =>
      t.request("/vote", { method: "POST", token: voter.token, json, headers: key ? { "idempotency-key": key } : {} });
    const rotate = (ids: string[]) => [...ids.slice(i % ids.length), ...ids.slice(0, i % ids.length)];
    const key = i % 3 === 0 ? undefined : crypto.randomUUID();
    const abstain = { choice: "abstain" };
    expect((await vote({ positionId: ranked.id, ...(marks ? { ranking: rotate(ranked.ids).slice(0, marks) } : abstain) }, key)).status).toBe(201);
    expect((await vote({ positionId: multi.id, ...(marks ? { candidateIds: rotate(multi.ids).slice(0, Math.min(marks, 3)) } : abstain) }, crypto.randomUUID())).status).toBe(201);
    expect((await vote({ positionId: single.id, ...(marks ? { candidateId: single.ids[marks - 1] } : abstain) }, key && crypto.randomUUID())).status).toBe(201);
    expect((await vote({ positionId: referendum.id, ...(marks ? { choice: marks % 2 ? "yes" : "no" } : abstain) }, crypto.randomUUID())).status).toBe(201);
    if (i % 8 === 7) await t.deps.mixer.mix();
  }
  await t.deps.mixer.mix();
  backup = join(dir, "backup.db");
  const result = await backupDatabase(t.database.url, backup);
  expect(result.audit).toMatchObject({ ok: true, ballots: VOTERS * 4, pending: 0, participations: VOTERS * 4 });
}, 180_000);

afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("a backup copy, with ballots of every method and abstentions", () => {
  it("has no column or length, in any table naming a voter, that predicts how many candidates were marked or an abstention", async () => {
    const probe = await backupLeaks(backup, voters, order);
    expect(probe.tables.has("participations")).toBe(true);
    expect(probe.features).toBeGreaterThan(10);
    expect(probe.leaks).toEqual([]);
  });

  it("stores every ballot and every sealed choice of a position at one length, abstentions included", async () => {
    const client = createClient({ url: `file:${backup}` });
    try {
      for (const [i, positionId] of positionIds.entries()) {
        for (const sql of [
          "SELECT DISTINCT length(sealed_choice) FROM participations WHERE position_id = ?",
          // Ranked and several seats: an abstention carries no marks (its kind is on the ballot, which names no voter).
          ...(i < 2 ? ["SELECT DISTINCT length(marks) FROM ballots WHERE position_id = ? AND marks IS NOT NULL"] : []),
        ]) {
          expect((await client.execute({ sql, args: [positionId] })).rows, sql).toHaveLength(1);
        }
      }
    } finally {
      client.close();
    }
  });
});

describe("the tables that hold ballots or a vote's traces", () => {
  // Storage order must not follow write order (docs/decisions/0003): a rowid table numbers its
  // rows as they are written. A table rebuilt by a generated migration loses WITHOUT ROWID
  // unless the migration puts it back, so every such table is checked here.
  const TABLES = ["ballots", "participations", "pending_ballots", "idempotency_keys", "station_ballots", "disputed_ballots", "signin_tries", "used_stream_tokens"];

  it("are all WITHOUT ROWID in the backup copy", async () => {
    const client = createClient({ url: `file:${backup}` });
    try {
      const kinds = await client.execute("PRAGMA table_list");
      const withoutRowid = new Map(kinds.rows.filter((r) => r.schema === "main").map((r) => [String(r.name), Number(r.wr) === 1]));
      expect(Object.fromEntries(TABLES.map((name) => [name, withoutRowid.get(name)]))).toEqual(Object.fromEntries(TABLES.map((name) => [name, true])));
    } finally {
      client.close();
    }
  });
});
