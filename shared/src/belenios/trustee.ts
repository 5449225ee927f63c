import {
  asObject,
  BeleniosFormatError,
  G,
  GROUP_NAME,
  hashToZq,
  isExponent,
  isGroupElement,
  modQ,
  mulm,
  parseJson,
  parseNumber,
  parseProof,
  powm,
  proofToJson,
  randomZq,
  type Proof,
} from "./group.ts";

/**
 * A trustee's key (specification 4.5): X = g^x with a Schnorr proof that its holder knows x,
 * challenge = SHA256(pok|BELENIOS-2048|X|A) mod q.
 */
export interface TrusteePublicKey {
  pok: Proof;
  publicKey: bigint;
}

function pokPrefix(publicKey: bigint): string {
  return `pok|${GROUP_NAME}|${publicKey.toString()}|`;
}

export function proveKnowledge(privateKey: bigint): TrusteePublicKey {
  const publicKey = powm(G, privateKey);
  const w = randomZq();
  const challenge = hashToZq(pokPrefix(publicKey), [powm(G, w)]);
  return { publicKey, pok: { challenge, response: modQ(w - privateKey * challenge) } };
}

export function verifyTrusteeKey(key: TrusteePublicKey): boolean {
  const { challenge, response } = key.pok;
  if (!isGroupElement(key.publicKey) || !isExponent(challenge) || !isExponent(response)) return false;
  const commitment = mulm(powm(G, response), powm(key.publicKey, challenge));
  return hashToZq(pokPrefix(key.publicKey), [commitment]) === challenge;
}

/** The one-line JSON of a `.pubkey` file, field order as the tool writes it. */
export function serializeTrusteeKey(key: TrusteePublicKey): string {
  return JSON.stringify({ pok: proofToJson(key.pok), public_key: key.publicKey.toString() });
}

export function parseTrusteeKey(text: string): TrusteePublicKey {
  const v = asObject(parseJson(text, "The public key"), "The public key");
  return { pok: parseProof(v.pok, "pok"), publicKey: parseNumber(v.public_key, "public_key") };
}

/** A `.privkey` file holds the exponent as a JSON string. */
export function serializePrivateKey(x: bigint): string {
  return JSON.stringify(x.toString());
}

export function parsePrivateKey(text: string): bigint {
  const x = parseNumber(parseJson(text.trim(), "The private key"), "The private key");
  if (!isExponent(x)) throw new BeleniosFormatError("The private key is out of range");
  return x;
}

export function generateTrusteeKey(): { privateKey: string; publicKey: string } {
  const x = randomZq();
  return { privateKey: serializePrivateKey(x), publicKey: serializeTrusteeKey(proveKnowledge(x)) };
}

/** The election public key: the product of the trustees' keys (n of n, "Single" trustees). */
export function combineKeys(keys: readonly TrusteePublicKey[]): bigint {
  return keys.reduce((y, k) => mulm(y, k.publicKey), 1n);
}

/** The archive's trustees structure: one ["Single", key] per trustee. */
export function serializeTrustees(keys: readonly TrusteePublicKey[]): string {
  return `[${keys.map((k) => `["Single",${serializeTrusteeKey(k)}]`).join(",")}]`;
}
