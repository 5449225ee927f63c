/**
 * A verifiable position's cast on the vote page: the credential (kept once per device and
 * session), the ballot encrypted on the device in a worker, and the encrypted ballot with its
 * tracker handed to the ordinary cast, so it goes through the outbox like every vote.
 */
import { useEffect, useRef, useState, type ReactNode } from "react";
import { normalizeCredential } from "@evoting/shared/belenios";
import type { BallotPosition } from "@evoting/shared";
import type { ChoiceFields } from "../lib/vote-body";
import type { PositionVoteStatus } from "../data/vote-status";
import { session } from "../auth/session";
import { ChoiceNotEncryptable, beleniosChoice } from "./choice";
import { CredentialPanel } from "./CredentialPanel";
import { encryptBallot, prewarmBallotWorker } from "./encrypt";
import { verifiableText } from "./messages";
import { saveCredential, useCredential } from "./use-credential";

export interface VerifiableBallot {
  /** The card's credential panel (null for an ordinary position). */
  panel: ReactNode;
  /** The cast with its encrypted ballot and tracker; null when it cannot go (the panel says why). */
  prepare: (cast: ChoiceFields) => Promise<ChoiceFields | null>;
  encrypting: boolean;
}

export function useVerifiableBallot(position: BallotPosition, status: PositionVoteStatus): VerifiableBallot {
  const { credential } = useCredential();
  const [typed, setTyped] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [encrypting, setEncrypting] = useState(false);
  // 'Change credential' shows the field again; the kept one stays until a new one is cast.
  const [changing, setChanging] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const belenios = position.belenios;
  const open = belenios?.state === "open" && status.kind !== "voted";
  useEffect(() => {
    if (open) prewarmBallotWorker();
  }, [open]);

  const prepare = async (cast: ChoiceFields): Promise<ChoiceFields | null> => {
    if (!belenios) return cast;
    if (belenios.state !== "open" || !belenios.election) {
      setError(verifiableText.notReady);
      return null;
    }
    let secret = changing ? null : credential;
    if (!secret) {
      secret = normalizeCredential(typed);
      if (!secret) {
        setError(typed.trim() ? verifiableText.credentialInvalid : verifiableText.credentialMissing);
        input.current?.focus();
        return null;
      }
      const userId = session.user()?._id;
      if (userId) await saveCredential(userId, secret);
      setChanging(false);
    }
    setError(null);
    setEncrypting(true);
    try {
      const { ballot, tracker } = await encryptBallot(belenios.election, secret, beleniosChoice(position, cast));
      return { ...cast, ballot, tracker };
    } catch (e) {
      setError(e instanceof ChoiceNotEncryptable || e instanceof Error ? e.message : "The ballot could not be encrypted on this device.");
      return null;
    } finally {
      setEncrypting(false);
    }
  };

  const done = status.kind === "voted" || status.kind === "queued";
  const panel = belenios ? (
    belenios.state === "setup" ? (
      <p className="rounded-lg bg-slate-100 px-3 py-2.5 text-sm text-slate-800">{verifiableText.notReady}</p>
    ) : (
      <CredentialPanel
        credential={changing ? null : credential}
        typed={typed}
        onType={(value) => {
          setTyped(value);
          setError(null);
        }}
        error={error}
        encrypting={encrypting}
        disabled={done || encrypting}
        inputRef={input}
        onChange={() => {
          setTyped("");
          setError(null);
          setChanging(true);
        }}
        onKeep={
          changing && credential
            ? () => {
                setChanging(false);
                setError(null);
              }
            : undefined
        }
      />
    )
  ) : null;
  return { panel, prepare, encrypting };
}
