/**
 * The Admin Panel's election card: the current election's state, 'Close voting now' while voting
 * is open or ahead (a confirm dialog: every position and the election end at once, then the
 * offline grace runs), 'Declare results' enabled once voting has closed for good (a confirm dialog: it cannot be undone), and 'Start a new election' once it
 * is declared (or before any vote). A declaration the integrity check refuses names the failure
 * in a toast; its problems show on the Integrity Check card, which reads the same recorded run.
 */
import { useState } from "react";
import { Link } from "@tanstack/react-router";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { messages } from "@evoting/shared";
import { electionsApi } from "../../api/elections";
import { currentElectionQuery, invalidateLifecycle } from "../../data/elections";
import { notifyError, notifySuccess } from "../../lib/notify";
import { formatShortDateTime, formatTime } from "../../lib/format";
import { invalidateElectionData } from "../../data/queries";
import { useOnline } from "../../hooks/use-online";
import { useNow } from "../../hooks/use-now";
import { Button, buttonClass } from "../ui/Button";
import { Card, CardHeader } from "../ui/Card";
import { StateMessage } from "../ui/Spinner";
import { ConfirmDeleteDialog } from "./ConfirmDeleteDialog";

export function ElectionLifecycleCard({ canWrite }: { canWrite: boolean }) {
  const online = useOnline();
  const now = useNow(15_000);
  const client = useQueryClient();
  const status = useQuery(currentElectionQuery());
  const [confirming, setConfirming] = useState(false);
  const [closing, setClosing] = useState(false);
  const close = useMutation({
    mutationFn: electionsApi.close,
    onSuccess: (answer) => {
      setClosing(false);
      notifySuccess(`${answer.message} at ${formatTime(answer.closedAt)}`);
    },
    onError: (e) => {
      setClosing(false);
      notifyError(e, "Failed to close voting");
    },
    onSettled: () => Promise.all([invalidateLifecycle(client), invalidateElectionData(client)]),
  });
  const declare = useMutation({
    mutationFn: electionsApi.declare,
    onSuccess: (answer) => {
      setConfirming(false);
      notifySuccess(answer.message);
    },
    onError: (e) => {
      setConfirming(false);
      notifyError(e, messages.declareFailed);
    },
    onSettled: () => invalidateLifecycle(client),
  });
  const s = status.data;
  const declared = s?.election.state === "declared";
  const declarable = s !== undefined && !declared && now >= Date.parse(s.declarableAt);
  return (
    <Card role="region" aria-label="Election">
      <CardHeader
        title="Election"
        description="Declare the results once voting has closed, then start the next election."
        action={
          canWrite &&
          s && (
            <div className="flex flex-wrap gap-2">
              {!declared && s.closable && (
                <Button size="sm" variant="danger" disabled={!online || close.isPending} onClick={() => setClosing(true)}>
                  Close voting now
                </Button>
              )}
              {!declared && (
                // Enabled only when the declaration can succeed; until then the card says when, in local time.
                <Button
                  size="sm"
                  variant={declarable ? "primary" : "secondary"}
                  disabled={!online || declare.isPending || !declarable}
                  aria-describedby="election-card-status"
                  onClick={() => setConfirming(true)}>
                  Declare results
                </Button>
              )}
              {(declared || !s.hasVotes) && (
                <Link to="/admin/elections/new" className={buttonClass("secondary", "sm")}>
                  Start a new election
                </Link>
              )}
            </div>
          )
        }
      />
      <div className="px-5 py-4 text-sm" role="status" id="election-card-status">
        {status.isPending ? (
          <StateMessage busy>Loading the election...</StateMessage>
        ) : status.isError || !s ? (
          <StateMessage>Failed to load the election</StateMessage>
        ) : declared ? (
          <p className="font-medium text-green-800">
            {s.election.title}: results declared {s.election.declaredAt ? `at ${formatShortDateTime(s.election.declaredAt)}` : ""}. They are kept in{" "}
            <Link to="/elections" className="underline">
              Past Elections
            </Link>
            .
          </p>
        ) : declarable ? (
          <p className="text-slate-700">{s.election.title}: voting has closed. The results can be declared.</p>
        ) : (
          <p className="text-slate-700">
            {s.election.title}: {s.closable ? "voting is open. " : "voting has closed. "}Results can be declared from {formatShortDateTime(s.declarableAt)}
            {s.closable ? ", after voting closes and the grace for offline votes." : ", when the grace for votes cast offline ends."}
          </p>
        )}
      </div>
      <ConfirmDeleteDialog
        open={closing}
        title="Close voting now?"
        confirmLabel="Close voting now"
        pendingLabel="Closing..."
        pending={close.isPending}
        onOpenChange={setClosing}
        onConfirm={() => close.mutate()}>
        <p>Voting ends now for the election and every position still open or yet to open. Nobody can vote after this.</p>
        <p>Votes cast offline before now are still accepted during the grace for offline votes; then receipts are published and the results can be declared.</p>
      </ConfirmDeleteDialog>
      <ConfirmDeleteDialog
        open={confirming}
        title="Declare results?"
        confirmLabel="Declare results"
        pendingLabel="Declaring..."
        pending={declare.isPending}
        tone="change"
        onOpenChange={setConfirming}
        onConfirm={() => declare.mutate()}>
        <p>The integrity check runs first. The results as they stand are then kept as this election's record, and nothing about this election can change afterwards.</p>
      </ConfirmDeleteDialog>
    </Card>
  );
}
