/**
 * Decrypt (docs/verifiable.md): after the close, each trustee loads their private key file;
 * this browser computes their partial decryption of every verifiable position's encrypted
 * tally from the public archive and submits it, and the server checks its proof. The private
 * key never leaves the page. With every trustee's share in, the results show.
 */
import { useState } from "react";
import { Link } from "@tanstack/react-router";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import type { Position } from "@evoting/shared";
import { errorMessage } from "../../../api/client";
import { verifiableApi } from "../../../api/verifiable-admin";
import { trusteesQuery, verifiablePositionsQuery } from "../../../data/verifiable-admin";
import { invalidateElectionData } from "../../../data/queries";
import { useOnline } from "../../../hooks/use-online";
import { notifyError, notifySuccess } from "../../../lib/notify";
import { BackToAdminButton } from "../../../components/admin/BackToAdminButton";
import { Button, buttonClass } from "../../../components/ui/Button";
import { Card, CardHeader } from "../../../components/ui/Card";
import { FieldShell } from "../../../components/ui/Field";
import { PageHeader } from "../../../components/ui/PageHeader";
import { StateMessage } from "../../../components/ui/Spinner";
import { KeyProblem, matchKey, partialDecryptionFor, type LoadedKey } from "./decrypt";
import { StateBadge } from "./VerifiablePositionsCard";

type Outcome = { tone: "ok" | "wait" | "error" | "busy"; text: string };

const remainingText = (n: number) =>
  n === 0 ? "Accepted: every trustee has decrypted, the result is in." : `Accepted: ${n} more ${n === 1 ? "trustee" : "trustees"} to decrypt.`;

export function DecryptPage() {
  const online = useOnline();
  const client = useQueryClient();
  const positions = useQuery(verifiablePositionsQuery());
  const trustees = useQuery(trusteesQuery());
  const [key, setKey] = useState<LoadedKey | null>(null);
  const [keyError, setKeyError] = useState<string>();
  const [outcomes, setOutcomes] = useState<Record<string, Outcome>>({});
  const [running, setRunning] = useState(false);

  const locked = positions.data?.filter((p) => p.belenios!.state !== "setup") ?? [];
  const allDecrypted = locked.length > 0 && locked.every((p) => p.belenios!.state === "decrypted");

  const loadFile = async (file: File | null) => {
    setKey(null);
    setOutcomes({});
    if (!file || !trustees.data) return;
    try {
      setKey(matchKey(await file.text(), trustees.data));
      setKeyError(undefined);
    } catch (e) {
      setKeyError(e instanceof KeyProblem ? e.message : "This file could not be read.");
    }
  };

  const decryptOne = async (p: Position, k: LoadedKey): Promise<Outcome> => {
    try {
      const archive = await verifiableApi.archive(p._id);
      const { tallied, partialDecryption } = partialDecryptionFor(archive, k);
      if (!tallied) return { tone: "wait", text: "Not yet: the tally comes after voting closes and the offline grace ends." };
      if (!partialDecryption) return { tone: "ok", text: "Your partial decryption is already in." };
      const { remaining } = await verifiableApi.submitPartialDecryption(p._id, k.trustee.id, partialDecryption);
      return { tone: "ok", text: remainingText(remaining) };
    } catch (e) {
      return { tone: "error", text: errorMessage(e, "Failed to decrypt this position") };
    }
  };

  const run = async () => {
    if (!key) return;
    setRunning(true);
    const todo = locked.filter((p) => p.belenios!.state !== "decrypted");
    let accepted = 0;
    for (const p of todo) {
      setOutcomes((o) => ({ ...o, [p._id]: { tone: "busy", text: "Decrypting..." } }));
      // The page paints the line above before the arithmetic starts.
      await new Promise((resolve) => setTimeout(resolve, 0));
      const outcome = await decryptOne(p, key);
      if (outcome.tone === "ok" && outcome.text.startsWith("Accepted")) accepted++;
      setOutcomes((o) => ({ ...o, [p._id]: outcome }));
    }
    setRunning(false);
    await invalidateElectionData(client);
    if (accepted > 0) notifySuccess(`${accepted} partial ${accepted === 1 ? "decryption" : "decryptions"} accepted`);
    else if (todo.length === 0) notifySuccess("Nothing left to decrypt");
    else notifyError(null, "No partial decryption was submitted: see each position");
  };

  return (
    <div className="space-y-6">
      <PageHeader
        title="Decrypt"
        description="After voting closes, each trustee decrypts their share of every verifiable position's tally here, with their private key file."
        actions={<BackToAdminButton />}
      />
      <Card>
        <CardHeader title="Your private key" description="The file is read in this browser only: your private key is never sent to the server." />
        <div className="space-y-4 px-5 py-4">
          <FieldShell label="Private Key File" error={keyError} hint="The .privkey file you saved when you generated your key.">
            {({ id, describedBy, invalid }) => (
              <input
                id={id}
                type="file"
                accept=".privkey,application/json,text/plain"
                aria-describedby={describedBy}
                aria-invalid={invalid || undefined}
                disabled={!trustees.isSuccess || running}
                onChange={(e) => void loadFile(e.target.files?.[0] ?? null)}
                className="block w-full text-sm text-slate-700 file:mr-4 file:rounded-lg file:border-0 file:bg-indigo-50 file:px-4 file:py-2 file:text-sm file:font-semibold file:text-indigo-800 hover:file:bg-indigo-100"
              />
            )}
          </FieldShell>
          {trustees.isError && <p role="alert">{errorMessage(trustees.error, "Failed to load the trustees")}</p>}
          {key && (
            <p role="status" className="rounded-lg bg-indigo-50 px-3 py-2 text-sm text-indigo-900">
              This is the key of trustee {key.trustee.id}, {key.trustee.name}.
            </p>
          )}
          <Button disabled={!key || !online || running || locked.length === 0} onClick={() => void run()}>
            {running ? "Decrypting..." : "Decrypt"}
          </Button>
        </div>
      </Card>

      <Card>
        <CardHeader title="Verifiable positions" />
        {positions.isPending ? (
          <StateMessage busy>Loading positions...</StateMessage>
        ) : positions.isError ? (
          <StateMessage>{errorMessage(positions.error, "Failed to load the positions")}</StateMessage>
        ) : locked.length === 0 ? (
          <StateMessage>No verifiable position is locked, so there is nothing to decrypt.</StateMessage>
        ) : (
          <ul className="divide-y divide-slate-100 px-5">
            {locked.map((p) => {
              const outcome = outcomes[p._id];
              return (
                <li key={p._id} aria-label={p.title} className="space-y-1 py-3 text-sm">
                  <p className="flex items-center gap-2 font-semibold text-slate-900">
                    {p.title} <StateBadge state={p.belenios!.state} />
                  </p>
                  {outcome && (
                    <p role={outcome.tone === "error" ? "alert" : "status"} className={outcome.tone === "error" ? "text-red-800" : outcome.tone === "wait" ? "text-amber-900" : "text-slate-700"}>
                      {outcome.text}
                    </p>
                  )}
                </li>
              );
            })}
          </ul>
        )}
      </Card>

      {allDecrypted && (
        <div role="status" className="flex flex-wrap items-center justify-between gap-3 rounded-2xl bg-green-50 px-5 py-4 text-sm text-green-900">
          <span>Every verifiable position is decrypted: the results are in, verified with Belenios.</span>
          <Link to="/results" className={buttonClass("secondary", "sm")}>
            See the results
          </Link>
        </div>
      )}
    </div>
  );
}
