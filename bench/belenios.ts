/**
 * Verifiable positions' figures (docs/performance.md): building a ballot with the browser's
 * BigInt code, checking ballots in the server's verifier thread (OpenSSL modular
 * exponentiation), the event loop's longest block while a roll of 10,000 public credentials is
 * uploaded and checked (the real app, in this process), and writing a 10,000-ballot archive.
 * `npm run bench:belenios` prints these figures; `npm run bench -- --only=belenios` prints them too,
 * with the issue's verdicts (bench/index.ts).
 */
import {
  bigintModPow,
  buildArchive,
  combineKeys,
  electionFingerprint,
  eventRecords,
  generateBallot,
  generateCredential,
  generateTrusteeKey,
  generateUuid,
  parseTrusteeKey,
  serializeElection,
  setModPow,
  setupPayloads,
  serializeTrustees,
  publicCredential,
  type ArchiveRecord,
} from "@evoting/shared/belenios";
import { loadavg } from "node:os";
import { pathToFileURL } from "node:url";
import { G, parseElection, precomputeBase, verifyBallot } from "@evoting/shared/belenios";
import { BallotVerifier } from "../api/src/services/belenios/verifier.ts";
import { credentialUpload } from "./belenios-credentials.ts";
import { useNativeModPow } from "../api/src/services/belenios/modpow.ts";

const load = () => loadavg().map((n) => n.toFixed(1)).join(" ");

export interface BenchElection {
  keys: ReturnType<typeof parseTrusteeKey>[];
  election: Parameters<typeof serializeElection>[0];
  electionJson: string;
  fp: string;
}

/** A position's election (5 candidates and blank) under two trustees' combined key. */
export function benchElection(): BenchElection {
  setModPow(bigintModPow);
  const keys = [generateTrusteeKey(), generateTrusteeKey()].map((k) => parseTrusteeKey(k.publicKey));
  const election = {
    uuid: generateUuid(),
    name: "President",
    description: "bench",
    publicKey: combineKeys(keys),
    question: { answers: ["A", "B", "C", "D", "E"], blank: true, min: 1, max: 1, question: "President" },
  };
  const electionJson = serializeElection(election);
  return { keys, election, electionJson, fp: electionFingerprint(electionJson) };
}

/** `count` voters' ballots with the browser's BigInt code, and the mean time of one. */
export function buildBallots(e: BenchElection, count = 20): { ballots: string[]; creds: string[]; buildMs: number } {
  const ballots: string[] = [];
  const creds: string[] = [];
  const t0 = performance.now();
  for (let i = 0; i < count; i++) {
    const c = generateCredential();
    creds.push(c);
    ballots.push(generateBallot(e.electionJson, e.election, e.fp, c, { selected: [i % 5] }));
  }
  return { ballots, creds, buildMs: (performance.now() - t0) / count };
}

/**
 * Wall-clock rates of `n` checks in one verifier thread, then in the server's verifier (a thread
 * per core, here two, the second started once checks wait).
 */
export async function verifierRates(e: BenchElection, ballots: string[], n = 200): Promise<{ oneThread: number; twoThreads: number }> {
  const rate = async (threads: number) => {
    const verifier = new BallotVerifier(threads);
    try {
      // Start every thread before the clock does, so start-up is not in the rate.
      await Promise.all(Array.from({ length: threads }, (_, i) => verifier.verify(e.electionJson, e.fp, ballots[i % ballots.length])));
      const t0 = performance.now();
      const checks = await Promise.all(Array.from({ length: n }, (_, i) => verifier.verify(e.electionJson, e.fp, ballots[i % ballots.length])));
      if (!checks.every((c) => c.ok)) throw new Error("a ballot did not verify");
      return n / ((performance.now() - t0) / 1000);
    } finally {
      await verifier.stop();
    }
  };
  return { oneThread: await rate(1), twoThreads: await rate(2) };
}

/**
 * The CPU time of one check, as the verifier thread does it, in this thread: robust to the
 * machine's load, which stretches the wall-clock rates.
 */
export function verificationCpuMs(e: BenchElection, ballots: string[], n = 100): number {
  useNativeModPow();
  precomputeBase(G);
  precomputeBase(e.election.publicKey);
  const parsed = parseElection(e.electionJson);
  for (const b of ballots) verifyBallot(b, parsed, e.fp);
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < n; i++) if (!verifyBallot(ballots[i % ballots.length], parseElection(e.electionJson), e.fp).ok) throw new Error("a ballot did not verify");
  const cpu = process.cpuUsage(cpu0);
  setModPow(bigintModPow);
  return (cpu.user + cpu.system) / n / 1000;
}

/** Writes a `count`-ballot archive from its records (the Setup event and one Ballot event each). */
export function archiveFigure(e: BenchElection, creds: string[], ballots: string[], count = 10_000): { ms: number; bytes: number } {
  const records: ArchiveRecord[] = eventRecords(null, "Setup", setupPayloads(e.electionJson, serializeTrustees(e.keys), JSON.stringify(creds.map((c) => publicCredential(c, e.election.uuid)))));
  let last = { hash: records[records.length - 1].hash, height: 0 };
  for (let i = 0; i < count; i++) {
    const rs = eventRecords(last, "Ballot", [ballots[i % ballots.length]]);
    records.push(...rs);
    last = { hash: rs[rs.length - 1].hash, height: last.height + 1 };
  }
  const t0 = performance.now();
  const bel = buildArchive(1_800_000_000, records);
  return { ms: performance.now() - t0, bytes: bel.length };
}

export interface BeleniosFigures {
  buildMs: number;
  oneThread: number;
  twoThreads: number;
  cpuMs: number;
  archiveMs: number;
  archiveBytes: number;
}

/** Every figure of `npm run bench:belenios`, printed as it measures them. */
export async function benchBelenios(): Promise<BeleniosFigures> {
  console.log(`load average ${load()} (2 cores shared: the rates below move with it; the CPU time per ballot much less)`);
  const e = benchElection();
  const { ballots, creds, buildMs } = buildBallots(e);
  console.log(`ballot build (5 candidates + blank, BigInt, this CPU, 1x)   ${buildMs.toFixed(0)} ms per ballot`);
  const { oneThread, twoThreads } = await verifierRates(e, ballots);
  console.log(`ballot verification, one worker thread (OpenSSL modexp)   ${oneThread.toFixed(0)} ballots/s`);
  console.log(`ballot verification, two worker threads (the server's)   ${twoThreads.toFixed(0)} ballots/s`);
  await credentialUpload(10_000);
  const cpuMs = verificationCpuMs(e, ballots);
  console.log(`ballot verification CPU time per ballot (native modexp + tables) ${cpuMs.toFixed(1)} ms: ${(1000 / cpuMs).toFixed(0)} ballots/s per core`);
  const archive = archiveFigure(e, creds, ballots);
  console.log(`10,000-ballot archive (${(archive.bytes / 1e6).toFixed(1)} MB) written from its records      ${archive.ms.toFixed(0)} ms`);
  console.log(`load average at the end ${load()}`);
  return { buildMs, oneThread, twoThreads, cpuMs, archiveMs: archive.ms, archiveBytes: archive.bytes };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await benchBelenios();
