import { ENCRYPTED_MARK, VERIFIED_MARK, type PositionResult } from "@evoting/shared";
import { Badge } from "../ui/Badge";

/**
 * A verifiable position's word on its counts (docs/verifiable.md): 'Verified with Belenios' once
 * the trustees' decryptions gave them, and until then that the ballots are encrypted and counted
 * only then (every tally reads 0 meanwhile, which must not read as a result).
 */
export function VerifiedMark({ result }: { result: PositionResult }) {
  if (!result.belenios) return null;
  return result.belenios.verified ? (
    <Badge tone="green">{VERIFIED_MARK}</Badge>
  ) : (
    <Badge tone="gray">{ENCRYPTED_MARK}</Badge>
  );
}

/** The printed sheet's line: the mark and the final archive's fingerprint a reader can check. */
export function VerifiedLine({ result }: { result: PositionResult }) {
  const b = result.belenios;
  if (!b) return null;
  return b.verified ? (
    <p className="mb-2 text-sm text-slate-700">
      {VERIFIED_MARK}. Final fingerprint of the ballot box: <code className="break-all font-mono">{b.fingerprint}</code>
    </p>
  ) : (
    <p className="mb-2 text-sm text-slate-700">Encrypted ballots: the counts come when every trustee has decrypted.</p>
  );
}
