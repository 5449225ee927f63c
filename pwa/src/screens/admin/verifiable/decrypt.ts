/**
 * A trustee's share of the count, computed in the browser from the public archive and the
 * private key file (docs/verifiable.md): what `belenios-tool election decrypt --privkey FILE
 * --trustee-id N` prints. The private key never leaves this page.
 */
import {
  computePartialDecryption,
  decryptOutput,
  electionFingerprint,
  G,
  parseEncryptedTally,
  parsePrivateKey,
  parseTrusteeKey,
  powm,
  readArchive,
} from "@evoting/shared/belenios";
import type { Trustee } from "../../../api/verifiable-admin";

export interface LoadedKey {
  privateKey: bigint;
  publicKey: bigint;
  trustee: Trustee;
}

export class KeyProblem extends Error {}

/** The trustee a private key file belongs to, or a plain reason why it belongs to none. */
export function matchKey(text: string, trustees: readonly Trustee[]): LoadedKey {
  let privateKey: bigint;
  try {
    privateKey = parsePrivateKey(text);
  } catch {
    throw new KeyProblem("This file is not a private key file.");
  }
  const publicKey = powm(G, privateKey);
  const trustee = trustees.find((t) => !t.server && parseTrusteeKey(t.publicKey).publicKey === publicKey);
  if (!trustee) throw new KeyProblem("This key belongs to no trustee of this election.");
  return { privateKey, publicKey, trustee };
}

export interface ArchiveState {
  /** Whether the encrypted tally is in (after the close and the offline grace). */
  tallied: boolean;
  /** The partial decryption to submit; null before the tally or when this trustee's is in. */
  partialDecryption: string | null;
  /** Trustee ids whose partial decryption the archive already holds. */
  decryptedBy: Set<number>;
}

export function partialDecryptionFor(archive: Uint8Array, key: LoadedKey): ArchiveState {
  const members = readArchive(archive);
  const electionJson = members.find((m) => m.name.endsWith(".data.json") && m.content.startsWith('{"version":1'))?.content;
  const tallyJson = members.find((m) => m.content.startsWith('[[{"alpha"'))?.content;
  const decryptedBy = new Set<number>();
  for (const m of members) {
    if (!m.content.startsWith('{"owner":')) continue;
    const owner = (JSON.parse(m.content) as { owner: unknown }).owner;
    if (typeof owner === "number") decryptedBy.add(owner);
  }
  if (!electionJson || !tallyJson) return { tallied: false, partialDecryption: null, decryptedBy };
  if (decryptedBy.has(key.trustee.id)) return { tallied: true, partialDecryption: null, decryptedBy };
  const pd = computePartialDecryption(electionFingerprint(electionJson), key.privateKey, key.publicKey, parseEncryptedTally(tallyJson));
  return { tallied: true, partialDecryption: decryptOutput(pd, key.trustee.id), decryptedBy };
}
