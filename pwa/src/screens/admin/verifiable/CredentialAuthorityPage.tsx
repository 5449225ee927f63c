/**
 * Credential Authority (docs/verifiable.md): in this browser only, one private credential per
 * eligible voter on the roll, each verifiable position's public credentials uploaded, and the
 * slips to hand out (a printable sheet with QR codes, and a CSV for mail merge). No private
 * credential ever reaches the server; they live in this page (and its worker) until it is closed.
 * The arithmetic and the QR codes run in a Web Worker, so the page stays responsive.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { toCsv } from "@evoting/shared";
import { errorMessage } from "../../../api/client";
import { verifiableApi } from "../../../api/verifiable-admin";
import { verifiablePositionsQuery } from "../../../data/verifiable-admin";
import { electionQuery } from "../../../data/election";
import { invalidateElectionData } from "../../../data/queries";
import { useOnline } from "../../../hooks/use-online";
import { formatInteger } from "../../../lib/format";
import { notifyError, notifySuccess } from "../../../lib/notify";
import { saveFile } from "../../../lib/save-file";
import { BackToAdminButton } from "../../../components/admin/BackToAdminButton";
import { ConfirmDeleteDialog } from "../../../components/admin/ConfirmDeleteDialog";
import { Button } from "../../../components/ui/Button";
import { Card, CardHeader } from "../../../components/ui/Card";
import { PageHeader } from "../../../components/ui/PageHeader";
import { StateMessage } from "../../../components/ui/Spinner";
import { CredentialSlips } from "./CredentialSlips";
import { CredentialWorker, type Slip } from "./credential-run";
import { StateBadge } from "./VerifiablePositionsCard";

type Phase = { step: "idle" } | { step: "roll" | "generate" | "upload"; done: number; total: number } | { step: "failed"; message: string };

const phaseText = (p: Exclude<Phase, { step: "idle" } | { step: "failed" }>) =>
  p.step === "roll"
    ? `Loading the roll: ${formatInteger(p.done)} of ${formatInteger(p.total)} voters`
    : p.step === "generate"
      ? `Generating credentials: ${formatInteger(p.done)} of ${formatInteger(p.total)} voters`
      : `Uploading public credentials: ${p.done} of ${p.total} positions`;

export function CredentialAuthorityPage() {
  const online = useOnline();
  const client = useQueryClient();
  const positions = useQuery(verifiablePositionsQuery());
  const election = useQuery(electionQuery());
  const [confirming, setConfirming] = useState(false);
  const [phase, setPhase] = useState<Phase>({ step: "idle" });
  const [slips, setSlips] = useState<Slip[] | null>(null);
  const [drawn, setDrawn] = useState(0);
  // The page's worker, started on first use and ended when the page goes.
  const worker = useRef<CredentialWorker | null>(null);
  const live = useRef(true);
  useEffect(() => {
    live.current = true;
    return () => {
      live.current = false;
      worker.current?.close();
      worker.current = null;
    };
  }, []);
  const theWorker = useCallback(() => (worker.current ??= new CredentialWorker()), []);
  const drawQrCodes = useCallback((credentials: string[]) => theWorker().qrCodes(credentials), [theWorker]);
  const targets = positions.data?.filter((p) => p.belenios!.state === "setup") ?? [];
  const busy = phase.step === "roll" || phase.step === "generate" || phase.step === "upload";

  // Closing the page loses the private credentials: the browser asks first while slips are shown.
  useEffect(() => {
    if (!slips && !busy) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [slips, busy]);

  // Printing shows the slips alone (styles.css, body[data-print="slips"]).
  useEffect(() => {
    if (!slips) return;
    document.body.dataset.print = "slips";
    return () => {
      delete document.body.dataset.print;
    };
  }, [slips]);

  const run = async () => {
    setConfirming(false);
    setSlips(null);
    try {
      setPhase({ step: "roll", done: 0, total: 0 });
      const voters = await verifiableApi.wholeRoll((done, total) => setPhase({ step: "roll", done, total }));
      setPhase({ step: "generate", done: 0, total: voters.length });
      const made = await theWorker().credentials(voters, targets, (done, total) => setPhase({ step: "generate", done, total }));
      if (!live.current) return;
      const uploads = targets.filter((p) => made.publicCredentials.get(p._id)!.length > 0);
      for (const [i, p] of uploads.entries()) {
        setPhase({ step: "upload", done: i, total: uploads.length });
        await verifiableApi.putCredentials(p._id, made.publicCredentials.get(p._id)!);
      }
      setSlips(made.slips);
      setPhase({ step: "idle" });
      const skipped = targets.filter((p) => !uploads.includes(p));
      notifySuccess(`${formatInteger(made.slips.length)} credentials made; public credentials uploaded for ${uploads.map((p) => p.title).join(", ") || "no position"}`);
      if (skipped.length) notifyError(null, `No voter on the roll may vote for ${skipped.map((p) => p.title).join(", ")}`);
      void invalidateElectionData(client);
    } catch (e) {
      if (!live.current) return;
      const message = errorMessage(e, "Failed to make the credentials");
      setPhase({ step: "failed", message });
      notifyError(e, "Failed to make the credentials");
    }
  };

  const downloadCsv = () => {
    const csv = toCsv(
      ["matricNumber", "name", "email", "credential", "positions"],
      slips!.map((s) => [s.matricNumber, s.name, s.email ?? "", s.credential, s.positions.join("; ")]),
    );
    saveFile(new Blob([csv], { type: "text/csv;charset=utf-8" }), "credentials.csv");
  };

  return (
    <div className="space-y-6">
      <div className="print:hidden">
        <PageHeader
          title="Credential Authority"
          description="Voting credentials for the verifiable positions: one per eligible voter, made in this browser."
          actions={<BackToAdminButton />}
        />
      </div>
      <Card className="print:hidden">
        <CardHeader title="Make the credentials" />
        <div className="space-y-3 px-5 py-4 text-sm text-slate-700">
          <p>
            This browser makes one private credential for every voter on the roll who may vote in a verifiable position, and uploads only the public
            credentials. <strong>No private credential ever reaches the server.</strong>
          </p>
          <p>
            Hand each voter their slip. <strong>Keep the sheet and the CSV safe until the count</strong>, then destroy them: whoever holds a credential can vote
            in that voter's name. Closing this page forgets the credentials; making them again replaces the earlier ones.
          </p>
          {positions.isPending ? (
            <StateMessage busy>Loading positions...</StateMessage>
          ) : positions.isError ? (
            <StateMessage>{errorMessage(positions.error, "Failed to load the positions")}</StateMessage>
          ) : positions.data.length === 0 ? (
            <StateMessage>No verifiable position yet. Tick 'Verifiable ballot' on Create Positions or Edit Position.</StateMessage>
          ) : (
            <ul aria-label="Verifiable positions" className="divide-y divide-slate-100 rounded-lg border border-slate-200">
              {positions.data.map((p) => (
                <li key={p._id} className="flex items-center justify-between gap-3 px-3 py-2">
                  <span className="font-medium text-slate-900">{p.title}</span>
                  <span className="flex items-center gap-2">
                    {p.belenios!.state !== "setup" && <span className="text-slate-600">Locked: its credentials are final</span>}
                    <StateBadge state={p.belenios!.state} />
                  </span>
                </li>
              ))}
            </ul>
          )}
          {busy && (
            <div className="space-y-1">
              <p role="status">{phaseText(phase)}</p>
              <progress className="h-2 w-full accent-indigo-600" max={Math.max(1, phase.total)} value={phase.done} aria-label={phaseText(phase)} />
            </div>
          )}
          {phase.step === "failed" && (
            <p role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-red-800">
              {phase.message}
            </p>
          )}
          <Button disabled={!online || busy || targets.length === 0} onClick={() => setConfirming(true)}>
            {busy ? "Working..." : "Generate credentials"}
          </Button>
        </div>
      </Card>

      {slips && (
        <Card>
          <div className="print:hidden">
            <CardHeader
              title="Slips"
              description={`${formatInteger(slips.length)} voters. Print the sheet or download the CSV now: they are gone once this page is closed.`}
              action={
                <div className="flex flex-wrap gap-2">
                  <Button disabled={drawn < slips.length} onClick={() => window.print()}>
                    Print slips
                  </Button>
                  <Button variant="secondary" onClick={downloadCsv}>
                    Download CSV
                  </Button>
                </div>
              }
            />
          </div>
          <CredentialSlips slips={slips} title={election.data?.title ?? "Verifiable ballot"} drawQrCodes={drawQrCodes} onDrawn={setDrawn} />
        </Card>
      )}

      <ConfirmDeleteDialog
        title="Generate Credentials"
        confirmLabel="Generate"
        pendingLabel="Generating..."
        tone="change"
        open={confirming}
        pending={false}
        onOpenChange={setConfirming}
        onConfirm={() => void run()}
      >
        <p>Make a credential for every eligible voter on the roll, for {targets.map((p) => p.title).join(", ")}?</p>
        <p>Public credentials uploaded before for these positions are replaced: slips printed before will no longer work.</p>
      </ConfirmDeleteDialog>
    </div>
  );
}
