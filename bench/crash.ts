/**
 * Crash durability: under a steady vote load, SIGKILL the server at a random
 * moment, then compare the load generator's ledger of acknowledged (2xx) votes with the
 * database file; restart and repeat.
 *
 *   node --import tsx bench/crash.ts [--rounds=20] [--connections=32] [--sync=FULL]
 *
 * Per round it checks: every acknowledged vote has its participation exactly once (primary
 * key) with the sealed choice the voter was told was recorded; ballots plus ballots still
 * pending for the mixer, per position, equal participations per position (no ballot without
 * participation or the reverse; "applied, row left" counts pending rows whose ballot a pass
 * cut off by the kill had applied already, which the next pass deletes); every
 * candidate's tally equals a recount; PRAGMA quick_check is ok. Requests cut off by the
 * kill are "in doubt": they may or may not have committed, and either is correct
 * ("landed" counts those that did).
 */
import { createClient } from "@libsql/client";
import { randomUUID } from "node:crypto";
import { loadavg } from "node:os";
import { loadKeys, unseal } from "../api/src/security/keys.ts";
import { intArg, parseArgs } from "./lib/args.ts";
import { BALLOT_KEY, startServer } from "./lib/server.ts";
import { recount, seed, tempDir, tokenOf, voterIdOf } from "./lib/seed.ts";
import { fmt, table } from "./lib/stats.ts";

const args = parseArgs();
const rounds = Math.min(200, intArg(args, "rounds", 20));
const connections = Math.min(256, intArg(args, "connections", 32));
const sync = (args.get("sync") ?? "FULL").toUpperCase();
const VOTERS = 40_000;

interface Pair {
  voter: number;
  position: string;
  candidate: string;
}

const scratch = tempDir("crash");
const keys = loadKeys({ secret: BALLOT_KEY });
try {
  console.log(`crash: ${rounds} rounds, ${connections} concurrent voters, synchronous=${sync}, load average ${loadavg().map((n) => n.toFixed(2)).join(" ")}`);
  const seeded = await seed(scratch.dbPath, { voters: VOTERS, sessions: true, ballotBatch: 1 });
  const pairs: Pair[] = [];
  for (let v = 1; v <= VOTERS; v++) {
    for (const [p, pos] of seeded.positions.entries()) pairs.push({ voter: v, position: pos.id, candidate: pos.candidates[(v * 7 + p) % pos.candidates.length] });
  }
  let nextPair = 0;
  const acked: Pair[] = [];
  const rows: Record<string, string | number>[] = [];
  let failures = 0;

  for (let round = 1; round <= rounds; round++) {
    const server = await startServer({ dbPath: scratch.dbPath, env: { DB_SYNCHRONOUS: sync } });
    const roundAcked: Pair[] = [];
    let inDoubt: Pair[] = [];
    let refused = 0;
    let killed = false;
    const loop = async () => {
      while (!killed && nextPair < pairs.length) {
        const pair = pairs[nextPair++];
        try {
          const res = await fetch(`${server.url}/api/vote`, {
            method: "POST",
            headers: { "content-type": "application/json", authorization: `Bearer ${tokenOf(pair.voter)}`, "idempotency-key": randomUUID() },
            body: JSON.stringify({ positionId: pair.position, candidateId: pair.candidate }),
            signal: AbortSignal.timeout(20_000),
          });
          await res.arrayBuffer();
          if (res.status >= 200 && res.status < 300) roundAcked.push(pair);
          else refused++;
        } catch {
          inDoubt.push(pair); // the connection died under us: committed or not, we cannot know
          return; // the server is gone; stop rather than spend more voters on a dead port
        }
      }
    };
    const load = Promise.all(Array.from({ length: connections }, loop));
    const killAfter = 300 + Math.random() * 2700;
    await new Promise((r) => setTimeout(r, killAfter));
    killed = true; // no new requests; those in flight meet the kill
    await server.kill(); // SIGKILL: no shutdown handler, no drain
    await load;

    const client = createClient({ url: `file:${scratch.dbPath}` });
    try {
      const part = await client.execute("SELECT voter_id, position_id, sealed_choice FROM participations");
      const stored = new Map<string, string>();
      let duplicates = 0;
      for (const r of part.rows) {
        const k = `${r.voter_id}|${r.position_id}`;
        if (stored.has(k)) duplicates++;
        stored.set(k, String(r.sealed_choice));
      }
      let missing = 0;
      let wrongChoice = 0;
      for (const a of roundAcked) {
        const voterId = voterIdOf(a.voter);
        const sealed = stored.get(`${voterId}|${a.position}`);
        if (!sealed) {
          missing++;
          continue;
        }
        // The sealed record (services/votes/cast.ts ChoiceRecord): c is the candidate id.
        const choice = JSON.parse(unseal(keys, sealed, `choice:${voterId}:${a.position}`)) as { c: string };
        if (choice.c !== a.candidate) wrongChoice++;
      }
      const landed = inDoubt.filter((d) => stored.has(`${voterIdOf(d.voter)}|${d.position}`)).length;
      const counted = await recount(client);
      const posMismatch = counted.mismatchedPositions;
      const { ballots, pending, appliedPending, badTallies, integrity } = counted;
      acked.push(...roundAcked);
      // Every earlier acknowledged vote must still be there too.
      const lostEarlier = acked.filter((a) => !stored.has(`${voterIdOf(a.voter)}|${a.position}`)).length - missing;
      const ok = missing === 0 && wrongChoice === 0 && duplicates === 0 && posMismatch === 0 && badTallies === 0 && integrity === "ok" && lostEarlier === 0;
      if (!ok) failures++;
      rows.push({
        round,
        "killed at": `${Math.round(killAfter)} ms`,
        acked: roundAcked.length,
        "in doubt": inDoubt.length,
        landed: landed,
        refused,
        missing,
        "wrong choice": wrongChoice,
        ballots,
        pending,
        "applied, row left": appliedPending,
        participations: stored.size,
        "pos. mismatch": posMismatch,
        "bad tallies": badTallies,
        integrity,
        ok: ok ? "yes" : "NO",
      });
      console.log(table([rows[rows.length - 1]]).split("\n").slice(round === 1 ? 0 : 2).join("\n"));
    } finally {
      client.close();
    }
    inDoubt = [];
    if (nextPair >= pairs.length) {
      console.log("ran out of prepared voters; stopping early");
      break;
    }
  }
  console.log(`\n${rows.length} rounds, ${fmt(acked.length)} acknowledged votes, all present exactly once: ${failures === 0 ? "YES" : `NO (${failures} bad rounds)`}`);
  // Ballots a kill left pending are applied by the next start's mixer, exactly once: start,
  // wait until none is pending, kill again, recount.
  const last = await startServer({ dbPath: scratch.dbPath, env: { DB_SYNCHRONOUS: sync } });
  const client = createClient({ url: `file:${scratch.dbPath}` });
  try {
    const count = async (sql: string) => Number((await client.execute(sql)).rows[0].n);
    const pendingAtStart = rows.length > 0 ? Number(rows[rows.length - 1].pending) : 0;
    const deadline = Date.now() + 15_000;
    while ((await count("SELECT count(*) AS n FROM pending_ballots")) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    await last.kill();
    const pendingLeft = await count("SELECT count(*) AS n FROM pending_ballots");
    // With nothing pending, every position's ballots equal its participations.
    const { mismatchedPositions: unequal, badTallies } = await recount(client);
    const applied = pendingLeft === 0 && unequal === 0 && badTallies === 0;
    console.log(`after one more start: ${pendingAtStart} ballots pending at the last kill, ${pendingLeft} still pending, ${unequal} positions with ballots <> participations, ${badTallies} bad tallies: ${applied ? "applied exactly once" : "NOT APPLIED"}`);
    if (!applied) failures++;
  } finally {
    client.close();
  }
  if (failures > 0) process.exitCode = 1;
} finally {
  scratch.cleanup();
}
