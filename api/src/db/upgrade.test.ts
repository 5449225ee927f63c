/**
 * A database made by an earlier release opens with this code: the migrations it lacks apply,
 * nothing it held is lost, and votes, receipts, results and the audit trail still work. The
 * fixtures are made by test/fixtures/make-release-db.mjs run on that release, through HTTP.
 */
import { createClient } from "@libsql/client";
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createApp } from "../app.ts";
import { FakeClock } from "../clock.ts";
import { buildDeps, closeDeps } from "../context.ts";
import { loadKeys } from "../security/keys.ts";
import { checkTallies } from "../services/accountability/tally-check.ts";
import fixture from "../test/fixtures/release-fixture.json";
import { openDatabase } from "./client.ts";

const fixtures = new URL("../test/fixtures/", import.meta.url);
const releases = readdirSync(fixtures).filter((f) => f.endsWith(".db"));
const journal = JSON.parse(readFileSync(new URL("../../drizzle/meta/_journal.json", import.meta.url), "utf8")) as { entries: unknown[] };

interface Fixture {
  ballotKey: string;
  admin: { matricNumber: string; password: string };
  positions: { title: string; candidates: string[] }[];
  voters: { matricNumber: string; dateOfBirth: string; votes: Record<string, string> }[];
}
const FIXTURE = fixture as Fixture;

const TABLES = ["users", "positions", "candidates", "participations", "audit_log", "chat_messages", "sessions", "idempotency_keys", "election_settings"] as const;

let cleanup: (() => Promise<void>) | null = null;
afterEach(async () => {
  await cleanup?.();
  cleanup = null;
});

async function countRows(file: string) {
  const client = createClient({ url: `file:${file}` });
  const counts: Record<(typeof TABLES)[number], number> = {} as never;
  for (const table of TABLES) counts[table] = Number((await client.execute(`SELECT count(*) AS n FROM ${table}`)).rows[0].n);
  const ballots = (await client.execute("SELECT (SELECT count(*) FROM ballots) + (SELECT count(*) FROM pending_ballots) AS n")).rows[0].n;
  client.close();
  return { ...counts, ballotsAndPending: Number(ballots) };
}

it("has databases made by earlier releases to open", () => {
  expect(releases.length).toBeGreaterThan(0);
});

describe.each(releases)("a database made by release %s", (release) => {
  it("migrates on open and keeps every voter, vote, receipt and audit entry", async () => {
    const dir = mkdtempSync(join(tmpdir(), "evoting-upgrade-"));
    const file = join(dir, "release.db");
    copyFileSync(new URL(release, fixtures), file);
    const before = await countRows(file);
    expect(before.participations).toBeGreaterThan(0);

    const database = await openDatabase({ url: `file:${file}`, synchronous: "NORMAL" });
    const keys = loadKeys({ secret: FIXTURE.ballotKey });
    const deps = buildDeps(database, new FakeClock(Date.parse("2027-03-02T09:00:00Z")), keys, { mixer: { immediate: true } });
    cleanup = async () => {
      await closeDeps(deps);
      rmSync(dir, { recursive: true, force: true });
    };
    const applied = await database.client.execute("SELECT count(*) AS n FROM __drizzle_migrations");
    expect(Number(applied.rows[0].n)).toBe(journal.entries.length);
    expect(await countRows(file)).toEqual(before);
    // The election the release ran is election 1, open, named as its settings, holding every position.
    const settings = (await database.client.execute("SELECT title, subtitle, start_time, end_time FROM election_settings")).rows[0];
    const elections = await database.client.execute("SELECT id, title, subtitle, start_time, end_time, state FROM elections");
    expect(elections.rows.map((r) => ({ ...r }))).toEqual([{ id: 1, ...settings, state: "open" }]);
    expect((await database.client.execute("SELECT count(*) AS n FROM positions WHERE election_id = 1")).rows[0].n).toBe(before.positions);
    // A release's batch of 1 was the old default nobody could change: migrated, it is the new one.
    expect((await database.client.execute("SELECT ballot_batch FROM election_settings")).rows[0].ballot_batch).toBe(10);
    // Ballots a release left pending for its mixer (sealed with their hour, without a MAC) are
    // applied by this one; with a batch of 1 (an admin's choice) each goes in as it comes, so the
    // vote below shows in the tallies at once.
    await database.client.execute("UPDATE election_settings SET ballot_batch = 1");
    await deps.mixer.mix();
    expect(Number((await database.client.execute("SELECT count(*) AS n FROM pending_ballots")).rows[0].n)).toBe(0);
    expect(await checkTallies(database, keys)).toMatchObject({ ok: true, pending: 0, participations: before.participations });

    const app = createApp(deps);
    const request = async (path: string, token?: string, json?: unknown) => {
      const headers = new Headers();
      if (token) headers.set("authorization", `Bearer ${token}`);
      if (json !== undefined) headers.set("content-type", "application/json");
      return app.request(`/api${path}`, { method: json === undefined ? "GET" : "POST", headers, body: json === undefined ? undefined : JSON.stringify(json) });
    };
    const login = async (matricNumber: string, secret: object) => {
      const res = await request("/auth/login", undefined, { matricNumber, ...secret });
      expect(res.status, `sign-in of ${matricNumber}`).toBe(200);
      return ((await res.json()) as { token: string }).token;
    };
    const admin = await login(FIXTURE.admin.matricNumber, { password: FIXTURE.admin.password });

    // Each voter's own votes read back from their sealed participations, with a receipt.
    for (const voter of FIXTURE.voters) {
      const token = await login(voter.matricNumber, { dateOfBirth: Number(voter.dateOfBirth) });
      const mine = (await (await request("/vote/my-votes", token)).json()) as { candidateName: string | null; receipt: string }[];
      expect(mine, voter.matricNumber).toHaveLength(Object.keys(voter.votes).length);
      for (const vote of mine) expect(vote.receipt).toMatch(/^[0-9A-HJKMNP-TV-Z]{10}$/);
    }

    const positions = (await (await request("/admin/positions", admin)).json()) as { _id: string; title: string }[];
    const candidates = (await (await request("/admin/candidates", admin)).json()) as { _id: string; name: string; positionId: string }[];
    const president = positions.find((p) => p.title === "President")!;
    const tally = async () => {
      const res = (await (await request("/vote/results", admin)).json()) as { results: { positionTitle: string; breakdown: { name: string; votes: number }[] }[] };
      return Object.fromEntries(res.results.map((r) => [r.positionTitle, Object.fromEntries(r.breakdown.map((b) => [b.name, b.votes]))]));
    };
    const expected: Record<string, Record<string, number>> = {};
    for (const p of FIXTURE.positions) expected[p.title] = Object.fromEntries(p.candidates.map((c) => [c, 0]));
    for (const v of FIXTURE.voters) for (const [title, choice] of Object.entries(v.votes)) if (choice !== "abstain") expected[title][choice]++;
    expect(await tally()).toEqual(expected);

    // The voter who had not voted votes now; one who had is refused.
    const fresh = FIXTURE.voters.find((v) => Object.keys(v.votes).length === 0)!;
    const grace = candidates.find((c) => c.name === "Grace")!;
    const cast = await request("/vote", await login(fresh.matricNumber, { dateOfBirth: Number(fresh.dateOfBirth) }), { positionId: president._id, candidateId: grace._id });
    expect(cast.status).toBe(201);
    const voted = FIXTURE.voters.find((v) => v.votes.President)!;
    const again = await request("/vote", await login(voted.matricNumber, { dateOfBirth: Number(voted.dateOfBirth) }), { positionId: president._id, candidateId: grace._id });
    expect(again.status).toBe(409);
    expected.President.Grace++;
    // Results may be served a moment stale when recomputing them is slow (a loaded machine).
    await expect.poll(tally, { timeout: 10_000, interval: 100 }).toEqual(expected);

    const chain = (await (await request("/admin/audit/verify", admin)).json()) as { ok: boolean; entries: number };
    expect(chain.ok).toBe(true);
    expect(chain.entries).toBeGreaterThan(before.audit_log);
    expect(await checkTallies(database, keys)).toMatchObject({ ok: true, participations: before.participations + 1 });
  });
});
