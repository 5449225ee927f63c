import { type Ciphertext, G, hashToZq, invm, isExponent, isGroupElement, modQ, mulm, powm, type Proof, randomZq } from "./group.ts";

/**
 * The zero-knowledge proofs of a homomorphic answer (specification 4.12 and 4.13), each prover
 * with its verifier beside it. `zkp` is the statement prefix S the caller builds.
 */

let invG: bigint | undefined;

/** g^-m, the "d" factor the tool multiplies beta by for a disjunct of value m. */
function gInverse(m: number): bigint {
  invG ??= invm(G);
  return m === 0 ? 1n : powm(invG, BigInt(m));
}

export function encrypt(y: bigint, r: bigint, m: number): Ciphertext {
  return { alpha: powm(G, r), beta: mulm(powm(y, r), m === 0 ? 1n : powm(G, BigInt(m))) };
}

export function combine(a: Ciphertext, b: Ciphertext): Ciphertext {
  return { alpha: mulm(a.alpha, b.alpha), beta: mulm(a.beta, b.beta) };
}

export const NEUTRAL: Ciphertext = { alpha: 1n, beta: 1n };

function iprovePrefix(zkp: string, c: Ciphertext): string {
  return `prove|${zkp}|${c.alpha.toString()},${c.beta.toString()}|`;
}

/** Proves that c encrypts values[index] with randomness r, values being the disjuncts M0..Mk. */
export function iprove(y: bigint, zkp: string, values: readonly number[], index: number, r: bigint, c: Ciphertext): Proof[] {
  const proofs: Proof[] = [];
  const commitments: bigint[] = [];
  let fakeChallenges = 0n;
  const w = randomZq();
  values.forEach((m, i) => {
    if (i === index) {
      proofs.push({ challenge: 0n, response: 0n });
      commitments.push(powm(G, w), powm(y, w));
      return;
    }
    const challenge = randomZq();
    const response = randomZq();
    proofs.push({ challenge, response });
    commitments.push(powm(G, modQ(response + r * challenge)), mulm(powm(y, response), powm(mulm(c.beta, gInverse(m)), challenge)));
    fakeChallenges += challenge;
  });
  const challenge = modQ(hashToZq(iprovePrefix(zkp, c), commitments) - fakeChallenges);
  proofs[index] = { challenge, response: modQ(w - r * challenge) };
  return proofs;
}

/** Both halves of a ciphertext are members of the group. */
export function isCiphertext(c: Ciphertext): boolean {
  return isGroupElement(c.alpha) && isGroupElement(c.beta);
}

export function iverify(y: bigint, zkp: string, values: readonly number[], c: Ciphertext, proofs: readonly Proof[]): boolean {
  return isCiphertext(c) && iverifyMembers(y, zkp, values, c, proofs);
}

/**
 * `iverify` for a ciphertext already known to be in the group: one the caller checked, or a
 * product of such (the subgroup is closed under multiplication), so the membership test, one
 * exponentiation per half, is not repeated.
 */
export function iverifyMembers(y: bigint, zkp: string, values: readonly number[], c: Ciphertext, proofs: readonly Proof[]): boolean {
  if (proofs.length !== values.length) return false;
  const commitments: bigint[] = [];
  let total = 0n;
  for (let i = 0; i < values.length; i++) {
    const { challenge, response } = proofs[i];
    if (!isExponent(challenge) || !isExponent(response)) return false;
    commitments.push(
      mulm(powm(G, response), powm(c.alpha, challenge)),
      mulm(powm(y, response), powm(mulm(c.beta, gInverse(values[i])), challenge)),
    );
    total += challenge;
  }
  return hashToZq(iprovePrefix(zkp, c), commitments) === modQ(total);
}

/** The disjuncts min..max. */
export function range(min: number, max: number): number[] {
  return Array.from({ length: max - min + 1 }, (_, i) => min + i);
}

export interface BlankProofs {
  overall: Proof[];
  blank: Proof[];
}

/**
 * blank_proof: m0 = 0 or mΣ = 0; overall_proof: m0 = 1 or mΣ in [min, max] (section 4.13).
 * c0/r0/m0 encrypt "this ballot is blank"; cS/rS/mS are the sums over the answers.
 */
export function proveBlank(
  y: bigint,
  zkp: string,
  min: number,
  max: number,
  c0: Ciphertext,
  r0: bigint,
  m0: number,
  cS: Ciphertext,
  rS: bigint,
  mS: number,
): BlankProofs {
  const n = max - min + 2;
  const overallCommitments: bigint[] = new Array<bigint>(2 * n);
  const overall: Proof[] = new Array<Proof>(n);
  let total = 0n;
  const fakeOverall = (i: number) => {
    const challenge = randomZq();
    const response = randomZq();
    overall[i] = { challenge, response };
    if (i === 0) {
      overallCommitments[0] = powm(G, modQ(response + r0 * challenge));
      overallCommitments[1] = mulm(powm(y, response), powm(mulm(c0.beta, gInverse(1)), challenge));
    } else {
      overallCommitments[2 * i] = powm(G, modQ(response + rS * challenge));
      overallCommitments[2 * i + 1] = mulm(powm(y, response), powm(mulm(cS.beta, gInverse(min + i - 1)), challenge));
    }
    total += challenge;
  };
  if (m0 === 0) {
    // blank_proof: the first disjunct (m0 = 0) is true, the second is simulated.
    const c1 = randomZq();
    const s1 = randomZq();
    const a1 = powm(G, modQ(s1 + rS * c1));
    const b1 = mulm(powm(y, s1), powm(cS.beta, c1));
    const w = randomZq();
    const h = hashToZq(`bproof0|${zkp}|`, [powm(G, w), powm(y, w), a1, b1]);
    const c0p = modQ(h - c1);
    const blank = [
      { challenge: c0p, response: modQ(w - r0 * c0p) },
      { challenge: c1, response: s1 },
    ];
    if (mS < min || mS > max) throw new RangeError("the number of selected answers is outside min..max");
    const index = mS - min + 1;
    for (let i = 0; i < n; i++) if (i !== index) fakeOverall(i);
    const wo = randomZq();
    overallCommitments[2 * index] = powm(G, wo);
    overallCommitments[2 * index + 1] = powm(y, wo);
    const challenge = modQ(hashToZq(`bproof1|${zkp}|`, overallCommitments) - total);
    overall[index] = { challenge, response: modQ(wo - rS * challenge) };
    return { overall, blank };
  }
  if (mS !== 0) throw new RangeError("a blank ballot selects no answer");
  const c0f = randomZq();
  const s0 = randomZq();
  const a0 = powm(G, modQ(s0 + r0 * c0f));
  const b0 = mulm(powm(y, s0), powm(c0.beta, c0f));
  const w = randomZq();
  const h = hashToZq(`bproof0|${zkp}|`, [a0, b0, powm(G, w), powm(y, w)]);
  const c1 = modQ(h - c0f);
  const blank = [
    { challenge: c0f, response: s0 },
    { challenge: c1, response: modQ(w - rS * c1) },
  ];
  for (let i = 1; i < n; i++) fakeOverall(i);
  const wo = randomZq();
  overallCommitments[0] = powm(G, wo);
  overallCommitments[1] = powm(y, wo);
  const challenge = modQ(hashToZq(`bproof1|${zkp}|`, overallCommitments) - total);
  overall[0] = { challenge, response: modQ(wo - r0 * challenge) };
  return { overall, blank };
}

/**
 * The checks of `proveBlank`'s proofs. c0 and cS must be group members already: c0 a choice the
 * caller checked, cS the product of the others, each checked too.
 */
export function verifyBlankMembers(
  y: bigint,
  zkp: string,
  min: number,
  max: number,
  c0: Ciphertext,
  cS: Ciphertext,
  proofs: BlankProofs,
): boolean {
  const { overall, blank } = proofs;
  if (blank.length !== 2 || overall.length !== max - min + 2) return false;
  if (![...blank, ...overall].every((p) => isExponent(p.challenge) && isExponent(p.response))) return false;
  const blankCommitments = [
    mulm(powm(G, blank[0].response), powm(c0.alpha, blank[0].challenge)),
    mulm(powm(y, blank[0].response), powm(c0.beta, blank[0].challenge)),
    mulm(powm(G, blank[1].response), powm(cS.alpha, blank[1].challenge)),
    mulm(powm(y, blank[1].response), powm(cS.beta, blank[1].challenge)),
  ];
  if (hashToZq(`bproof0|${zkp}|`, blankCommitments) !== modQ(blank[0].challenge + blank[1].challenge)) return false;
  const commitments: bigint[] = [];
  let total = 0n;
  overall.forEach((p, i) => {
    const c = i === 0 ? c0 : cS;
    const m = i === 0 ? 1 : min + i - 1;
    commitments.push(mulm(powm(G, p.response), powm(c.alpha, p.challenge)), mulm(powm(y, p.response), powm(mulm(c.beta, gInverse(m)), p.challenge)));
    total += p.challenge;
  });
  return hashToZq(`bproof1|${zkp}|`, commitments) === modQ(total);
}

/** Decryption factor alpha^x with the proof that log_g X = log_alpha factor (section 4.18). */
export function proveDecryption(fingerprint: string, x: bigint, X: bigint, alpha: bigint): { factor: bigint; proof: Proof } {
  const w = randomZq();
  const challenge = hashToZq(`decrypt|${fingerprint}|${X.toString()}|`, [powm(G, w), powm(alpha, w)]);
  return { factor: powm(alpha, x), proof: { challenge, response: modQ(w - x * challenge) } };
}

export function verifyDecryption(fingerprint: string, X: bigint, alpha: bigint, factor: bigint, proof: Proof): boolean {
  if (!isGroupElement(factor) || !isExponent(proof.challenge) || !isExponent(proof.response)) return false;
  const a = mulm(powm(G, proof.response), powm(X, proof.challenge));
  const b = mulm(powm(alpha, proof.response), powm(factor, proof.challenge));
  return hashToZq(`decrypt|${fingerprint}|${X.toString()}|`, [a, b]) === proof.challenge;
}
