/**
 * Verifiable positions' figures (docs/performance.md): building a ballot with the browser's
 * BigInt code, checking ballots in the server's verifier thread (OpenSSL modular
 * exponentiation), the event loop's longest block while a roll of 10,000 public credentials is
 * uploaded and checked (the real app, in this process), and writing a 10,000-ballot archive.
 * `npm run bench:belenios`.
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
import { G, parseElection, precomputeBase, verifyBallot } from "@evoting/shared/belenios";
import { BallotVerifier } from "../api/src/services/belenios/verifier.ts";
import { credentialUpload } from "./belenios-credentials.ts";
import { useNativeModPow } from "../api/src/services/belenios/modpow.ts";

const load = () => loadavg().map((n) => n.toFixed(1)).join(" ");
console.log(`load average ${load()} (2 cores shared: the rates below move with it; the CPU time per ballot much less)`);

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
const fp = electionFingerprint(electionJson);

const BUILT = 20;
const ballots: string[] = [];
const creds: string[] = [];
let t0 = performance.now();
for (let i = 0; i < BUILT; i++) {
  const c = generateCredential();
  creds.push(c);
  ballots.push(generateBallot(electionJson, election, fp, c, { selected: [i % 5] }));
}
const buildMs = (performance.now() - t0) / BUILT;
console.log(`ballot build (5 candidates + blank, BigInt, this CPU, 1x)   ${buildMs.toFixed(0)} ms per ballot`);

const verifier = new BallotVerifier(1);
await verifier.verify(electionJson, fp, ballots[0]); // start the thread
const N = 200;
t0 = performance.now();
const checks = await Promise.all(Array.from({ length: N }, (_, i) => verifier.verify(electionJson, fp, ballots[i % BUILT])));
const verifyS = (performance.now() - t0) / 1000;
if (!checks.every((c) => c.ok)) throw new Error("a ballot did not verify");
console.log(`ballot verification, one worker thread (OpenSSL modexp)   ${(N / verifyS).toFixed(0)} ballots/s`);
await verifier.stop();
// The server's verifier: a thread per core, the second started once checks wait.
const server = new BallotVerifier(2);
await Promise.all([0, 1].map((i) => server.verify(electionJson, fp, ballots[i]))); // start both threads
t0 = performance.now();
await Promise.all(Array.from({ length: N }, (_, i) => server.verify(electionJson, fp, ballots[i % BUILT])));
console.log(`ballot verification, two worker threads (the server's)   ${(N / ((performance.now() - t0) / 1000)).toFixed(0)} ballots/s`);
await server.stop();

await credentialUpload(10_000);

// The CPU time of one check, as the verifier thread does it, in this thread: robust to the
// machine's load, which stretches the wall-clock rates above.
useNativeModPow();
precomputeBase(G);
precomputeBase(election.publicKey);
const parsed = parseElection(electionJson);
for (const b of ballots) verifyBallot(b, parsed, fp);
const cpu0 = process.cpuUsage();
for (let i = 0; i < 100; i++) if (!verifyBallot(ballots[i % BUILT], parseElection(electionJson), fp).ok) throw new Error("a ballot did not verify");
const cpu = process.cpuUsage(cpu0);
const cpuMs = (cpu.user + cpu.system) / 100 / 1000;
console.log(`ballot verification CPU time per ballot (native modexp + tables) ${cpuMs.toFixed(1)} ms: ${(1000 / cpuMs).toFixed(0)} ballots/s per core`);
setModPow(bigintModPow);

const records: ArchiveRecord[] = eventRecords(null, "Setup", setupPayloads(electionJson, serializeTrustees(keys), JSON.stringify(creds.map((c) => publicCredential(c, election.uuid)))));
let last = { hash: records[records.length - 1].hash, height: 0 };
for (let i = 0; i < 10_000; i++) {
  const rs = eventRecords(last, "Ballot", [ballots[i % BUILT]]);
  records.push(...rs);
  last = { hash: rs[rs.length - 1].hash, height: last.height + 1 };
}
t0 = performance.now();
const bel = buildArchive(1_800_000_000, records);
console.log(`10,000-ballot archive (${(bel.length / 1e6).toFixed(1)} MB) written from its records      ${(performance.now() - t0).toFixed(0)} ms`);
console.log(`load average at the end ${load()}`);
