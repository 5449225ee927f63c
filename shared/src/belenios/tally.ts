import type { Ballot } from "./ballot.ts";
import {
  asArray,
  asObject,
  BeleniosFormatError,
  type Ciphertext,
  ciphertextToJson,
  G,
  invm,
  mulm,
  parseCiphertext,
  parseJson,
  parseNumber,
  parseProof,
  type Proof,
  proofToJson,
  sha256Hex,
} from "./group.ts";
import { combine, NEUTRAL, proveDecryption, verifyDecryption } from "./proofs.ts";
import type { TrusteePublicKey } from "./trustee.ts";

/**
 * The count (specification 4.16 to 4.19) for one homomorphic question: the pointwise product of
 * the ballots' ciphertexts, each trustee's decryption factors with proofs, and the counts.
 */
export function encryptedTally(ballots: readonly Ballot[], width: number): Ciphertext[] {
  const tally = new Array<Ciphertext>(width).fill(NEUTRAL);
  for (const b of ballots) {
    const choices = b.answers[0].choices;
    for (let j = 0; j < width; j++) tally[j] = combine(tally[j], choices[j]);
  }
  return tally;
}

/** The EncryptedTally payload text: one question, so an array holding one array. */
export function serializeEncryptedTally(tally: readonly Ciphertext[]): string {
  return JSON.stringify([tally.map(ciphertextToJson)]);
}

export function parseEncryptedTally(text: string): Ciphertext[] {
  const outer = asArray(parseJson(text, "The encrypted tally"), "The encrypted tally");
  if (outer.length !== 1) throw new BeleniosFormatError("The encrypted tally must have one question");
  return asArray(outer[0], "The encrypted tally").map((c, i) => parseCiphertext(c, `tally[${i}]`));
}

export interface PartialDecryption {
  factors: bigint[];
  proofs: Proof[];
}

export function computePartialDecryption(fingerprint: string, privateKey: bigint, publicKey: bigint, tally: readonly Ciphertext[]): PartialDecryption {
  const parts = tally.map((c) => proveDecryption(fingerprint, privateKey, publicKey, c.alpha));
  return { factors: parts.map((p) => p.factor), proofs: parts.map((p) => p.proof) };
}

export function serializePartialDecryption(pd: PartialDecryption): string {
  return JSON.stringify({ decryption_factors: [pd.factors.map((f) => f.toString())], decryption_proofs: [pd.proofs.map(proofToJson)] });
}

/**
 * Reads a partial decryption. `belenios-tool election decrypt` prints it and, on a second line,
 * its owner record (`{"owner":N,"payload":HASH}`); that line is returned as `owner` when present
 * and must name the first line's hash.
 */
export function parsePartialDecryption(text: string): PartialDecryption & { owner?: number } {
  const lines = text.trim().split("\n");
  if (lines.length > 2) throw new BeleniosFormatError("The partial decryption has more than two lines");
  let owner: number | undefined;
  if (lines.length === 2) {
    const o = asObject(parseJson(lines[1], "The partial decryption's owner line"), "The owner line");
    if (typeof o.owner !== "number" || !Number.isInteger(o.owner) || o.payload !== sha256Hex(lines[0].trim())) {
      throw new BeleniosFormatError("The partial decryption's owner line does not match it");
    }
    owner = o.owner;
  }
  const v = asObject(parseJson(lines[0], "The partial decryption"), "The partial decryption");
  const factors = asArray(v.decryption_factors, "decryption_factors");
  const proofs = asArray(v.decryption_proofs, "decryption_proofs");
  if (factors.length !== 1 || proofs.length !== 1) throw new BeleniosFormatError("The partial decryption must have one question");
  return {
    factors: asArray(factors[0], "decryption_factors").map((f, i) => parseNumber(f, `decryption_factors[${i}]`)),
    proofs: asArray(proofs[0], "decryption_proofs").map((p, i) => parseProof(p, `decryption_proofs[${i}]`)),
    ...(owner === undefined ? {} : { owner }),
  };
}

export function verifyPartialDecryption(fingerprint: string, key: TrusteePublicKey, tally: readonly Ciphertext[], pd: PartialDecryption): boolean {
  if (pd.factors.length !== tally.length || pd.proofs.length !== tally.length) return false;
  return tally.every((c, j) => verifyDecryption(fingerprint, key.publicKey, c.alpha, pd.factors[j], pd.proofs[j]));
}

/**
 * The counts: log_g(beta / product of the factors) for each answer, searched up to the number of
 * ballots tallied (the only values a sum of 0/1 votes can take). Throws when none fits.
 */
export function computeResult(tally: readonly Ciphertext[], partials: readonly PartialDecryption[], numTallied: number): number[] {
  return tally.map((c, j) => {
    const factor = partials.reduce((acc, pd) => mulm(acc, pd.factors[j]), 1n);
    const target = mulm(c.beta, invm(factor));
    let power = 1n;
    for (let k = 0; k <= numTallied; k++) {
      if (power === target) return k;
      power = mulm(power, G);
    }
    throw new BeleniosFormatError("The partial decryptions do not decrypt the tally");
  });
}

export function serializeResult(counts: readonly number[]): string {
  return JSON.stringify({ result: [counts] });
}

/** What `belenios-tool election decrypt --trustee-id N` prints: the partial decryption and its owner record. */
export function decryptOutput(pd: PartialDecryption, trusteeId: number): string {
  const text = serializePartialDecryption(pd);
  return `${text}\n${JSON.stringify({ owner: trusteeId, payload: sha256Hex(text) })}`;
}
