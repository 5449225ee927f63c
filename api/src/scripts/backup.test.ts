/**
 * Backups under load: a copy taken while votes keep landing opens, passes the audit, is one
 * instant's snapshot, and restores into a working server with the same ballot key.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createApp } from "../app.ts";
import { buildDeps, closeDeps } from "../context.ts";
import { openDatabase } from "../db/client.ts";
import { createTestApp, type TestApp } from "../test/harness.ts";
import { backupDatabase } from "./backup.ts";

let t: TestApp;
let dir: string;
beforeEach(async () => {
  // A batch of 1: these tests read each vote in the tallies as soon as it is applied.
  t = await createTestApp({ ballotBatch: 1 });
  dir = mkdtempSync(join(tmpdir(), "evoting-backup-"));
});
afterEach(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("backup", () => {
  it("takes a consistent copy while votes keep landing, and the copy restores", async () => {
    const admin = await t.adminToken();
    const a = await t.openElection(admin, ["Ada", "Grace"], "President");
    const b = await t.openElection(admin, ["Linus", "Margaret"], "Secretary");
    const voters = [];
    for (let i = 0; i < 24; i++) voters.push(await t.createVoter(admin));

    let stop = false;
    let acked = 0;
    let sixAcked!: () => void;
    const underWay = new Promise<void>((resolve) => (sixAcked = resolve));
    const vote = async (token: string, positionId: string, candidateId: string) => {
      const res = await t.request("/vote", { method: "POST", token, json: { positionId, candidateId } });
      expect(res.status).toBe(201);
      if (++acked === 6) sixAcked();
    };
    // Votes stream in on both positions for the whole backup.
    const load = (async () => {
      for (const [i, v] of voters.entries()) {
        if (stop && i > 12) break;
        await Promise.all([vote(v.token, a.position._id, a.candidates[i % 2]._id), vote(v.token, b.position._id, b.candidates[(i + 1) % 2]._id)]);
      }
    })();
    await Promise.race([underWay, load]);
    expect(acked).toBeGreaterThanOrEqual(6);

    const out = join(dir, "nested", "copy.db");
    const result = await backupDatabase(t.database.url, out);
    stop = true;
    await load;

    expect(result.audit).toMatchObject({ ok: true, integrity: "ok", positionMismatches: [], tallyMismatches: [] });
    // A copy may hold ballots still pending for the mixer (services/votes/mixer.ts): counted, not yet tallied.
    expect(result.audit.ballots + result.audit.pending).toBe(result.audit.participations);
    expect(result.audit.ballots).toBeGreaterThan(0);
    expect(result.audit.ballots).toBeLessThanOrEqual(acked);
    expect(existsSync(`${out}-wal`)).toBe(false);
    await expect(backupDatabase(t.database.url, out)).rejects.toThrow(/exists already/);

    // Restore: the copy plus the same ballot key is a working server with those votes.
    const restored = await openDatabase({ url: `file:${out}` });
    const restoredDeps = buildDeps(restored, t.clock, t.deps.keys);
    try {
      const app = createApp(restoredDeps);
      await restoredDeps.mixer.stop(); // the restored server's first pass applies what was pending
      const first = voters[0];
      const mine = await app.request("/api/vote/my-votes", { headers: { authorization: `Bearer ${first.token}` } });
      expect(mine.status).toBe(200);
      expect((await mine.json()).map((v: { candidateName: string }) => v.candidateName).sort()).toEqual(["Ada", "Margaret"]);
      const results = await (await app.request("/api/vote/results", { headers: { authorization: `Bearer ${first.token}` } })).json();
      expect(results.results.reduce((n: number, p: { totalVotes: number }) => n + p.totalVotes, 0)).toBe(result.audit.ballots + result.audit.pending);
    } finally {
      await closeDeps(restoredDeps);
    }
  });

  it("refuses non-file databases", async () => {
    await expect(backupDatabase("libsql://example.turso.io", join(dir, "x.db"))).rejects.toThrow(/local file/);
  });
});
