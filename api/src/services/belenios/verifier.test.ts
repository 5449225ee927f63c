import { readdirSync, readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import {
  combineKeys,
  electionFingerprint,
  generateBallot,
  generateCredential,
  generateTrusteeKey,
  generateUuid,
  parseTrusteeKey,
  serializeElection,
} from "@evoting/shared/belenios";
import { BallotVerifier } from "./verifier.ts";
import { VERIFIER_NICE } from "./verifier-thread.ts";

const election = {
  uuid: generateUuid(),
  name: "President",
  description: "verifier threads",
  publicKey: combineKeys([parseTrusteeKey(generateTrusteeKey().publicKey)]),
  question: { answers: ["A", "B", "C"], blank: true, min: 1, max: 1, question: "President" },
};
const electionJson = serializeElection(election);
const fingerprint = electionFingerprint(electionJson);
const ballots = Array.from({ length: 4 }, (_, i) => generateBallot(electionJson, election, fingerprint, generateCredential(), { selected: [i % 3] }));

/** The nice value of each of this process's threads (Linux: field 19 of /proc/self/task/TID/stat). */
function threadNiceValues(): number[] {
  return readdirSync("/proc/self/task").map((tid) => {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16]);
  });
}

let verifier: BallotVerifier | null = null;
afterEach(async () => {
  await verifier?.stop();
  verifier = null;
});

describe("the ballot verifier's threads", () => {
  it("start one for a lone check and a second only when checks wait, each answering its own check", async () => {
    verifier = new BallotVerifier(2);
    expect(verifier.running).toBe(0);
    expect((await verifier.verify(electionJson, fingerprint, ballots[0])).ok).toBe(true);
    expect(verifier.running).toBe(1);
    expect((await verifier.verify(electionJson, fingerprint, ballots[1])).ok).toBe(true);
    expect(verifier.running).toBe(1);

    // Four at once, one of them changed: two threads, and the refusal is that ballot's.
    const tampered = ballots[2].replace(/"alpha":"(\d)/, (_, d: string) => `"alpha":"${(Number(d) + 1) % 10}`);
    const verdicts = await Promise.all([ballots[0], ballots[1], tampered, ballots[3]].map((b) => verifier!.verify(electionJson, fingerprint, b)));
    expect(verifier.running).toBe(2);
    expect(verdicts.map((v) => v.ok)).toEqual([true, true, false, true]);
  }, 60_000);

  it("never start more threads than allowed", async () => {
    verifier = new BallotVerifier(1);
    await Promise.all(ballots.map((b) => verifier!.verify(electionJson, fingerprint, b)));
    expect(verifier.running).toBe(1);
  }, 60_000);

  it.runIf(process.platform === "linux")("run below the event loop's priority", async () => {
    const before = threadNiceValues().filter((n) => n === VERIFIER_NICE).length;
    verifier = new BallotVerifier(1);
    await verifier.verify(electionJson, fingerprint, ballots[0]);
    expect(threadNiceValues().filter((n) => n === VERIFIER_NICE).length).toBeGreaterThan(before);
    expect(threadNiceValues()).toContain(0); // this thread, the event loop's, is not lowered
  }, 60_000);
});
