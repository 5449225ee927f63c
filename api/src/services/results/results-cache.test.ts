/**
 * Results are served from memory: a change in this process shows on the next request; one
 * made by another process sharing the database shows within a second.
 */
import { afterEach, describe, expect, it } from "vitest";
import { FakeClock } from "../../clock.ts";
import type { Database } from "../../db/client.ts";
import { createTestApp, type TestApp } from "../../test/harness.ts";
import { secondProcesses } from "../../test/second-process.ts";
import { ElectionSettingsCache } from "../election/settings.ts";
import { bumpResultsVersionSql, ResultsService } from "./results.ts";

let t: TestApp;
const secondProcess = secondProcesses();

afterEach(async () => t.close());

/** Another process's write to one candidate's tally, as a vote batch would make it. */
async function tallyElsewhere(database: Database, candidateId: string) {
  await database.writer.submit([
    { sql: "UPDATE candidates SET vote_count = vote_count + 1 WHERE id = ?", args: [candidateId] },
    bumpResultsVersionSql,
  ]);
}

describe("results from memory", () => {
  it("shows a local change at once and another process's within a second", async () => {
    t = await createTestApp();
    const admin = await t.adminToken();
    const { candidates } = await t.openElection(admin, ["Ada"]);
    // Never costly here: on a loaded machine (a CI run beside other work) a recompute of one
    // candidate took over 5 ms and the stale snapshot was served, as it is meant to be at scale.
    // The snapshot's age is measured on a clock the test moves, so the second is a step, not a wait.
    const elapsed = new FakeClock(0);
    const results = new ResultsService(t.database, t.clock, t.deps.electionSettings, Infinity, 0, elapsed);
    const votes = async () => (await results.get()).results[0].breakdown[0].votes;
    expect(await votes()).toBe(0);

    // This process: the write is followed by changed() (hub.resultsChanged() calls it).
    await tallyElsewhere(t.database, candidates[0]._id);
    results.changed();
    expect(await votes()).toBe(1);

    // Another process: its own connections on the same file; nothing tells this one.
    const other = await secondProcess(t);
    await tallyElsewhere(other, candidates[0]._id);
    // Within the second the snapshot is served from memory; once it is up, the counter is read.
    elapsed.advance(999);
    expect(await votes()).toBe(1);
    elapsed.advance(1);
    expect(await votes()).toBe(2);
  });

  it("serialises a snapshot once and serves the same text until it changes", async () => {
    t = await createTestApp();
    const admin = await t.adminToken();
    const { candidates } = await t.openElection(admin, ["Ada"]);
    const results = new ResultsService(t.database, t.clock, t.deps.electionSettings, Infinity);
    const first = await results.json();
    expect(JSON.parse(first).results[0].breakdown[0].votes).toBe(0);
    expect(await results.json()).toBe(first);
    await tallyElsewhere(t.database, candidates[0]._id);
    results.changed();
    expect(JSON.parse(await results.json()).results[0].breakdown[0].votes).toBe(1);
  });

  it("holds the election settings a second, so another process's change shows within one", async () => {
    t = await createTestApp();
    const elapsed = new FakeClock(0);
    const settings = new ElectionSettingsCache(t.database, elapsed);
    const title = (await settings.get()).title;
    const other = await secondProcess(t);
    await other.writer.submit([{ sql: "UPDATE election_settings SET title = 'Changed elsewhere' WHERE id = 1", args: [] }]);
    elapsed.advance(999);
    expect((await settings.get()).title).toBe(title);
    elapsed.advance(1);
    expect((await settings.get()).title).toBe("Changed elsewhere");
  });
});
