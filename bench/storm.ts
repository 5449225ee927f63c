/**
 * Replay and race storm: every voter sends their vote 5 times concurrently with
 * one Idempotency-Key and 5 times with fresh keys, all at once, against the real server.
 *
 *   node --import tsx bench/storm.ts [--voters=1000] [--parallel=100]
 *
 * Passes when: exactly one ballot and one participation per voter, tallies equal a recount,
 * no 5xx, the 5 same-key answers are identical, and each voter sees either 5 × 201 (the
 * keyed request won; its replays say so) or 1 × 201 (a fresh-key request won; everything
 * else is 409 'already voted').
 */
import { createClient } from "@libsql/client";
import { randomUUID } from "node:crypto";
import { loadavg } from "node:os";
import { intArg, parseArgs } from "./lib/args.ts";
import { startServer } from "./lib/server.ts";
import { recount, seed, tempDir, tokenOf } from "./lib/seed.ts";
import { fmt } from "./lib/stats.ts";

const args = parseArgs();
const voters = intArg(args, "voters", 1_000);
const parallel = Math.max(1, Math.min(1000, intArg(args, "parallel", 100)));

const scratch = tempDir("storm");
try {
  console.log(`storm: ${fmt(voters)} voters x (5 same-key + 5 new-key) concurrent votes, ${parallel} voters at once, load average ${loadavg().map((n) => n.toFixed(2)).join(" ")}`);
  const seeded = await seed(scratch.dbPath, { voters, positions: 1, candidatesPerPosition: 3, sessions: true, ballotBatch: 1 });
  const position = seeded.positions[0];
  const server = await startServer({ dbPath: scratch.dbPath });
  const statuses: Record<string, number> = {};
  const winners = { keyed: 0, fresh: 0, other: 0 };
  let inconsistentReplays = 0;
  let fiveXx = 0;
  const t0 = performance.now();
  try {
    let networkRetries = 0;
    const vote = async (i: number, key: string): Promise<{ status: number; body: string }> => {
      for (let attempt = 1; ; attempt++) {
        try {
          return await voteOnce(i, key);
        } catch (e) {
          // A reset connection (listen backlog overflow under 1,000 sockets): the client
          // retries with the SAME key, exactly what the key is for.
          if (attempt >= 5) throw e;
          networkRetries++;
          await new Promise((r) => setTimeout(r, 200 * attempt));
        }
      }
    };
    const voteOnce = async (i: number, key: string) => {
      const res = await fetch(`${server.url}/api/vote`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${tokenOf(i)}`, "idempotency-key": key },
        body: JSON.stringify({ positionId: position.id, candidateId: position.candidates[i % position.candidates.length] }),
        signal: AbortSignal.timeout(60_000),
      });
      const body = await res.text();
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
      if (res.status >= 500) fiveXx++;
      return { status: res.status, body };
    };
    const voter = async (i: number) => {
      const key = randomUUID();
      const answers = await Promise.all([
        ...Array.from({ length: 5 }, () => vote(i, key)),
        ...Array.from({ length: 5 }, () => vote(i, randomUUID())),
      ]);
      const same = answers.slice(0, 5);
      const fresh = answers.slice(5);
      if (!same.every((a) => a.status === same[0].status && a.body === same[0].body)) inconsistentReplays++;
      const sameWon = same.every((a) => a.status === 201) && fresh.every((a) => a.status === 409);
      const freshWon = same.every((a) => a.status === 409) && fresh.filter((a) => a.status === 201).length === 1 && fresh.filter((a) => a.status === 409).length === 4;
      if (sameWon) winners.keyed++;
      else if (freshWon) winners.fresh++;
      else winners.other++;
    };
    process.on("exit", () => networkRetries && console.log(`network retries (same key): ${networkRetries}`));
    let next = 1;
    await Promise.all(Array.from({ length: parallel }, async () => {
      while (next <= voters) await voter(next++);
    }));
  } finally {
    await server.stop();
  }
  const seconds = (performance.now() - t0) / 1000;

  const client = createClient({ url: `file:${scratch.dbPath}` });
  const perVoter = await client.execute("SELECT count(*) AS voters, sum(n = 1) AS once FROM (SELECT voter_id, count(*) AS n FROM participations GROUP BY voter_id)");
  const counted = await recount(client);
  client.close();
  const votedOnce = Number(perVoter.rows[0].once);
  const { ballots: ballotCount, badTallies } = counted;
  console.log(`${fmt(voters * 10)} requests in ${seconds.toFixed(1)} s; statuses ${JSON.stringify(statuses)}`);
  console.log(`winner per voter: keyed request ${winners.keyed}, a fresh-key request ${winners.fresh}, neither pattern ${winners.other}; inconsistent same-key answers ${inconsistentReplays}`);
  console.log(`database: ${fmt(votedOnce)} voters with exactly one participation, ${fmt(ballotCount)} ballots, tallies total ${counted.tallied}, bad tallies ${badTallies}`);
  const ok = votedOnce === voters && ballotCount === voters && badTallies === 0 && fiveXx === 0 && inconsistentReplays === 0 && winners.other === 0;
  console.log(`Exactly one ballot per voter and position: ${ok ? "YES" : "NO"}`);
  if (!ok) process.exitCode = 1;
} finally {
  scratch.cleanup();
}
