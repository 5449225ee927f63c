/**
 * `npm run bench -- --only=votes-verifiable`: the ordinary vote's latency at 50 connections while
 * a stream of verifiable ballots is being checked (issue target: p99 under 100 ms). The real
 * server in its own process; the ordinary votes from the load generator's process, as in the
 * votes part; the verifiable ballots, built here beforehand for a locked verifiable position,
 * sent from this process a few at a time so that the server's verifier thread never runs dry.
 * Runs alternate without and with the stream, on fresh voters each time, so that each pair
 * shares the machine's minute (other processes' load moves both).
 */
import { randomUUID } from "node:crypto";
import { writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import {
  electionFingerprint,
  G,
  generateBallot,
  generateCredential,
  parseElection,
  precomputeBase,
} from "@evoting/shared/belenios";
import { useNativeModPow } from "../api/src/services/belenios/modpow.ts";
import { runCannon, type CannonResult } from "./lib/cannon.ts";
import { startServer } from "./lib/server.ts";
import { lockedVerifiablePosition } from "./lib/verifiable.ts";
import { seed, tempDir, tokenOf } from "./lib/seed.ts";
import { fmt, ms } from "./lib/stats.ts";
import type { ThroughputOptions } from "./throughput.ts";

/** Verifiable ballots in flight at once: enough that the verifier thread always has the next one. */
const IN_FLIGHT = 4;
/** Ballots built per second of a run with the stream: above what one verifier thread checks. */
const BALLOTS_PER_SECOND = 40;

export interface VerifiableVotesBench {
  /** The ordinary votes of each run with the stream. */
  withStream: CannonResult[];
  /** The ordinary votes of each run without it, in between. */
  alone: CannonResult[];
  /** Verifiable ballots accepted per second in each run with the stream. */
  ballotsPerSec: number[];
}

const load = () =>
  loadavg()
    .map((n) => n.toFixed(1))
    .join(" ");

export async function benchVotesWithVerifiable(o: ThroughputOptions, rounds = 2): Promise<VerifiableVotesBench> {
  const scratch = tempDir("votes-verifiable");
  try {
    const ordinaryVoters = 40_000;
    const ballotCount = rounds * o.durationS * BALLOTS_PER_SECOND;
    const t0 = performance.now();
    const seeded = await seed(scratch.dbPath, { voters: ordinaryVoters + ballotCount, sessions: true });
    console.log(`votes+verifiable  seeded ${fmt(ordinaryVoters + ballotCount)} voters with sessions in ${ms(performance.now() - t0)}`);
    // Ordinary votes: distinct (voter, position) pairs, a fresh slice for each run.
    const pairs: [string, string, string][] = [];
    for (let i = 1; i <= ordinaryVoters; i++) {
      for (const [p, pos] of seeded.positions.entries()) pairs.push([tokenOf(i), pos.id, pos.candidates[(i + p) % pos.candidates.length]]);
    }
    const server = await startServer({ dbPath: scratch.dbPath, env: { DB_SYNCHRONOUS: o.synchronous } });
    try {
      // A verifiable position with 5 candidates, the server as its trustee, one credential per
      // voter of the stream; locked, so it takes ballots. The ballots are built here as a phone
      // would, with OpenSSL's exponentiation to save the bench's time (the same numbers as BigInt's).
      useNativeModPow();
      precomputeBase(G);
      const credentials = Array.from({ length: ballotCount }, () => generateCredential());
      const positionId = await lockedVerifiablePosition(server.url, credentials, "Verified");
      const streamVoter = (k: number) => tokenOf(ordinaryVoters + 1 + k);
      const listed = (await (await fetch(`${server.url}/api/vote/positions`, { headers: { authorization: `Bearer ${streamVoter(0)}` } })).json()) as {
        _id: string;
        belenios?: { election?: string };
      }[];
      const electionJson = listed.find((p) => p._id === positionId)!.belenios!.election!;
      const election = parseElection(electionJson);
      const fingerprint = electionFingerprint(electionJson);
      precomputeBase(election.publicKey);
      const t1 = performance.now();
      const ballots = credentials.map((c, k) => generateBallot(electionJson, election, fingerprint, c, { selected: [k % 5] }));
      console.log(`votes+verifiable  built ${fmt(ballotCount)} verifiable ballots (5 candidates + blank) in ${ms(performance.now() - t1)}`);

      let nextBallot = 0;
      /** Sends verifiable ballots, IN_FLIGHT at a time, until `stop` resolves; answers the count accepted and refused. */
      const stream = async (stop: Promise<unknown>) => {
        let running = true;
        void stop.then(() => (running = false));
        let accepted = 0;
        const refused: Record<string, number> = {};
        let firstRefusal = "";
        const sender = async () => {
          while (running && nextBallot < ballots.length) {
            const k = nextBallot++;
            const res = await fetch(`${server.url}/api/vote`, {
              method: "POST",
              headers: { authorization: `Bearer ${streamVoter(k)}`, "content-type": "application/json", "idempotency-key": randomUUID() },
              body: JSON.stringify({ positionId, ballot: ballots[k] }),
            });
            const text = await res.text();
            if (res.status === 201) accepted++;
            else {
              refused[res.status] = (refused[res.status] ?? 0) + 1;
              firstRefusal ||= text.slice(0, 200);
            }
          }
        };
        await Promise.all(Array.from({ length: IN_FLIGHT }, sender));
        return { accepted, refused, firstRefusal, ranOut: nextBallot >= ballots.length };
      };

      const url = `${server.url}/api/vote`;
      let slice = 0;
      const votesFile = (count: number) => {
        const file = join(scratch.dir, `votes-${slice++}.json`);
        writeFileSync(file, JSON.stringify(pairs.splice(0, count)));
        return file;
      };
      // Each run's share of the ordinary votes: more than a run can cast at the ceiling's rate.
      const perRun = Math.floor(pairs.length / (2 * rounds + 1));
      await runCannon({ url, connections: o.connections, durationS: 2, mode: "votes", loadgen: o.loadgen, votesFile: votesFile(Math.min(perRun, 5_000)) }, scratch.dir);

      const out: VerifiableVotesBench = { withStream: [], alone: [], ballotsPerSec: [] };
      const line = (r: CannonResult) => `${fmt(r.reqPerSec)} votes/s, p50 ${ms(r.p50)}, p99 ${ms(r.p99)}, max ${ms(r.max)}, non-2xx ${r.non2xx}, errors ${r.errors}`;
      for (let round = 1; round <= rounds; round++) {
        const alone = await runCannon({ url, connections: o.connections, durationS: o.durationS, mode: "votes", loadgen: o.loadgen, votesFile: votesFile(perRun) }, scratch.dir);
        console.log(`votes+verifiable  round ${round}, ordinary votes alone, ${o.connections} connections: ${line(alone)} (load ${load()})`);
        const started = performance.now();
        const run = runCannon({ url, connections: o.connections, durationS: o.durationS, mode: "votes", loadgen: o.loadgen, votesFile: votesFile(perRun) }, scratch.dir);
        const sent = stream(run);
        const withStream = await run;
        const streamed = await sent;
        const seconds = (performance.now() - started) / 1000;
        const rate = streamed.accepted / seconds;
        const refused = Object.keys(streamed.refused).length ? `, refused ${JSON.stringify(streamed.refused)}, the first: ${streamed.firstRefusal}` : "";
        const ranOut = streamed.ranOut ? " (the built ballots ran out: the rate is a lower bound)" : "";
        console.log(
          `votes+verifiable  round ${round}, the same while verifiable ballots are checked: ${line(withStream)}; verifiable ballots ${rate.toFixed(1)}/s (${streamed.accepted} accepted in ${seconds.toFixed(1)} s${refused})${ranOut} (load ${load()})`,
        );
        out.alone.push(alone);
        out.withStream.push(withStream);
        out.ballotsPerSec.push(rate);
      }
      return out;
    } finally {
      await server.stop();
    }
  } finally {
    scratch.cleanup();
  }
}
