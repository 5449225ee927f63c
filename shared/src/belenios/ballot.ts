import { credentialSecret } from "./credential.ts";
import type { Election } from "./election.ts";
import {
  asArray,
  asObject,
  BeleniosFormatError,
  type Ciphertext,
  ciphertextToJson,
  G,
  hashToZq,
  isExponent,
  isGroupElement,
  modQ,
  mulm,
  parseCiphertext,
  parseJson,
  parseNumber,
  parseProof,
  powm,
  type Proof,
  proofToJson,
  randomZq,
  sha256B64,
} from "./group.ts";
import { type BlankProofs, combine, encrypt, iprove, iverify, iverifyMembers, NEUTRAL, proveBlank, range, verifyBlankMembers } from "./proofs.ts";

/** One encrypted answer to a homomorphic question (specification 4.11.1). */
export interface Answer {
  choices: Ciphertext[];
  individualProofs: Proof[][];
  overallProof: Proof[];
  blankProof?: Proof[];
}

export interface Ballot {
  electionUuid: string;
  electionHash: string;
  credential: bigint;
  answers: Answer[];
  signature?: { hash: string; proof: Proof };
}

function answerToJson(a: Answer) {
  return {
    choices: a.choices.map(ciphertextToJson),
    individual_proofs: a.individualProofs.map((ps) => ps.map(proofToJson)),
    overall_proof: a.overallProof.map(proofToJson),
    ...(a.blankProof ? { blank_proof: a.blankProof.map(proofToJson) } : {}),
  };
}

/** The compact JSON the tool writes, fields in its order: the tracker and the signature hash it. */
export function serializeBallot(b: Ballot): string {
  return JSON.stringify({
    election_uuid: b.electionUuid,
    election_hash: b.electionHash,
    credential: b.credential.toString(),
    answers: b.answers.map(answerToJson),
    ...(b.signature ? { signature: { hash: b.signature.hash, proof: proofToJson(b.signature.proof) } } : {}),
  });
}

/** The smart ballot tracker: what `belenios-tool sha256-b64` prints for the ballot text. */
export function ballotTracker(ballotJson: string): string {
  return sha256B64(ballotJson);
}

function choicesString(choices: readonly Ciphertext[]): string {
  return choices.map((c) => `${c.alpha.toString()},${c.beta.toString()}`).join(",");
}

/**
 * The plaintext of one answer: `blank` for a blank vote (only when the question allows it), else
 * the 0-based indexes of the chosen answers (between min and max of them).
 */
export type Choice = { blank: true } | { selected: number[] };

export function plaintextVector(election: Election, choice: Choice): number[] {
  const q = election.question;
  if ("blank" in choice) {
    if (!q.blank) throw new RangeError("This question does not allow a blank vote");
    return new Array<number>(q.answers.length + 1).fill(0).map((_, i) => (i === 0 ? 1 : 0));
  }
  const picks = new Set(choice.selected);
  if (picks.size !== choice.selected.length) throw new RangeError("An answer is chosen twice");
  for (const i of picks) if (!Number.isInteger(i) || i < 0 || i >= q.answers.length) throw new RangeError("No such answer");
  if (picks.size < q.min || picks.size > q.max) throw new RangeError(`Choose between ${q.min} and ${q.max} answers`);
  const m = q.answers.map((_, i) => (picks.has(i) ? 1 : 0));
  return q.blank ? [0, ...m] : m;
}

/** Builds the encrypted, proven and signed ballot, as `belenios-tool election generate-ballot` does. */
export function generateBallot(electionJson: string, election: Election, fingerprint: string, credential: string, choice: Choice): string {
  const y = election.publicKey;
  const m = plaintextVector(election, choice);
  const sk = credentialSecret(credential, election.uuid);
  const credentialKey = powm(G, sk);
  const s0 = `${fingerprint}|${credentialKey.toString()}`;
  const r = m.map(() => randomZq());
  const choices = m.map((mi, i) => encrypt(y, r[i], mi));
  const individualProofs = m.map((mi, i) => iprove(y, s0, [0, 1], mi, r[i], choices[i]));
  const s = `${s0}|${choicesString(choices)}`;
  const q = election.question;
  let answer: Answer;
  if (q.blank) {
    const rest = choices.slice(1);
    const rS = modQ(r.slice(1).reduce((a, b) => a + b, 0n));
    const mS = m.slice(1).reduce((a, b) => a + b, 0);
    const proofs = proveBlank(y, s, q.min, q.max, choices[0], r[0], m[0], rest.reduce(combine, NEUTRAL), rS, mS);
    answer = { choices, individualProofs, overallProof: proofs.overall, blankProof: proofs.blank };
  } else {
    const rS = modQ(r.reduce((a, b) => a + b, 0n));
    const mS = m.reduce((a, b) => a + b, 0);
    const overallProof = iprove(y, s, range(q.min, q.max), mS - q.min, rS, choices.reduce(combine, NEUTRAL));
    answer = { choices, individualProofs, overallProof };
  }
  const unsigned: Ballot = { electionUuid: election.uuid, electionHash: fingerprint, credential: credentialKey, answers: [answer] };
  const hash = sha256B64(serializeBallot(unsigned));
  const w = randomZq();
  const challenge = hashToZq(`sig|${hash}|`, [powm(G, w)]);
  return serializeBallot({ ...unsigned, signature: { hash, proof: { challenge, response: modQ(w - sk * challenge) } } });
}

function parseAnswer(value: unknown): Answer {
  const a = asObject(value, "answer");
  const proofs = (v: unknown, what: string) => asArray(v, what).map((p, i) => parseProof(p, `${what}[${i}]`));
  return {
    choices: asArray(a.choices, "choices").map((c, i) => parseCiphertext(c, `choices[${i}]`)),
    individualProofs: asArray(a.individual_proofs, "individual_proofs").map((ps, i) => proofs(ps, `individual_proofs[${i}]`)),
    overallProof: proofs(a.overall_proof, "overall_proof"),
    ...(a.blank_proof === undefined ? {} : { blankProof: proofs(a.blank_proof, "blank_proof") }),
  };
}

/** Reads a ballot and insists on the tool's exact serialization, as Belenios's server does. */
export function parseBallot(text: string): Ballot {
  const v = asObject(parseJson(text, "The ballot"), "The ballot");
  if (typeof v.election_uuid !== "string" || typeof v.election_hash !== "string") {
    throw new BeleniosFormatError("The ballot has no election uuid or hash");
  }
  const sig = v.signature === undefined ? undefined : asObject(v.signature, "signature");
  if (sig && typeof sig.hash !== "string") throw new BeleniosFormatError("The ballot's signature has no hash");
  const ballot: Ballot = {
    electionUuid: v.election_uuid,
    electionHash: v.election_hash,
    credential: parseNumber(v.credential, "credential"),
    answers: asArray(v.answers, "answers").map(parseAnswer),
    ...(sig ? { signature: { hash: sig.hash as string, proof: parseProof(sig.proof, "signature.proof") } } : {}),
  };
  if (serializeBallot(ballot) !== text) throw new BeleniosFormatError("The ballot is not written the way Belenios writes it");
  return ballot;
}

export type BallotCheck = { ok: true; ballot: Ballot; credential: string; tracker: string } | { ok: false; reason: "format" | "election" | "proof"; message: string };

/**
 * Every check of `check_ballot`: the right election, a canonical text, a valid signature by the
 * credential, and every proof of the answer.
 */
export function verifyBallot(ballotJson: string, election: Election, fingerprint: string): BallotCheck {
  let ballot: Ballot;
  try {
    ballot = parseBallot(ballotJson);
  } catch (e) {
    return { ok: false, reason: "format", message: e instanceof Error ? e.message : "The ballot cannot be read" };
  }
  if (ballot.electionUuid !== election.uuid || ballot.electionHash !== fingerprint) {
    return { ok: false, reason: "election", message: "The ballot is for another election" };
  }
  const fail = (message: string): BallotCheck => ({ ok: false, reason: "proof", message });
  if (!ballot.signature) return fail("The ballot is not signed");
  const { signature, credential } = ballot;
  if (sha256B64(serializeBallot({ ...ballot, signature: undefined })) !== signature.hash) return fail("The ballot's signature does not match it");
  if (!isGroupElement(credential) || !isExponent(signature.proof.challenge) || !isExponent(signature.proof.response)) {
    return fail("The ballot's signature does not verify");
  }
  const commitment = mulm(powm(G, signature.proof.response), powm(credential, signature.proof.challenge));
  if (hashToZq(`sig|${signature.hash}|`, [commitment]) !== signature.proof.challenge) return fail("The ballot's signature does not verify");
  if (ballot.answers.length !== 1) return fail("The ballot must answer exactly one question");
  if (!verifyAnswer(election, fingerprint, credential, ballot.answers[0])) return fail("The ballot's proofs do not verify");
  return { ok: true, ballot, credential: credential.toString(), tracker: sha256B64(ballotJson) };
}

function verifyAnswer(election: Election, fingerprint: string, credential: bigint, a: Answer): boolean {
  const q = election.question;
  const y = election.publicKey;
  const n = q.answers.length + (q.blank ? 1 : 0);
  if (a.choices.length !== n || a.individualProofs.length !== n) return false;
  const s0 = `${fingerprint}|${credential.toString()}`;
  // Each choice's membership is checked once here; the proofs below then take members only,
  // including the products of choices (the group is closed under multiplication).
  for (let i = 0; i < n; i++) if (!iverify(y, s0, [0, 1], a.choices[i], a.individualProofs[i])) return false;
  const s = `${s0}|${choicesString(a.choices)}`;
  if (q.blank) {
    if (!a.blankProof) return false;
    const proofs: BlankProofs = { overall: a.overallProof, blank: a.blankProof };
    return verifyBlankMembers(y, s, q.min, q.max, a.choices[0], a.choices.slice(1).reduce(combine, NEUTRAL), proofs);
  }
  if (a.blankProof) return false;
  return iverifyMembers(y, s, range(q.min, q.max), a.choices.reduce(combine, NEUTRAL), a.overallProof);
}
