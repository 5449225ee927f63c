import { useState } from "react";
import { Link } from "@tanstack/react-router";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Position } from "@evoting/shared";
import { errorMessage } from "../../../api/client";
import { stateHelp, stateLabels, verifiableApi, type BeleniosState } from "../../../api/verifiable-admin";
import { verifiablePositionsQuery } from "../../../data/verifiable-admin";
import { invalidateElectionData } from "../../../data/queries";
import { useOnline } from "../../../hooks/use-online";
import { formatDateTime } from "../../../lib/format";
import { notifyError, notifySuccess } from "../../../lib/notify";
import { ConfirmDeleteDialog } from "../../../components/admin/ConfirmDeleteDialog";
import { Badge, type BadgeTone } from "../../../components/ui/Badge";
import { Button, buttonClass } from "../../../components/ui/Button";
import { Card, CardHeader } from "../../../components/ui/Card";
import { StateMessage } from "../../../components/ui/Spinner";

export const stateTones: Record<BeleniosState, BadgeTone> = { setup: "amber", open: "blue", tallying: "indigo", decrypted: "green" };

export function StateBadge({ state }: { state: BeleniosState }) {
  return <Badge tone={stateTones[state]}>{stateLabels[state]}</Badge>;
}

/**
 * The verifiable positions with their state, and for admins a 'Lock' per position still in
 * set-up (confirm dialog; the server says why when it refuses: no trustee, no credentials);
 * once a locked one has ended, the way to who voted for it.
 */
export function VerifiablePositionsCard({ canWrite }: { canWrite: boolean }) {
  const online = useOnline();
  const client = useQueryClient();
  const positions = useQuery(verifiablePositionsQuery());
  const [locking, setLocking] = useState<Position | null>(null);
  const lock = useMutation({
    mutationFn: (p: Position) => verifiableApi.lock(p._id),
    onSuccess: (_answer, p) => {
      setLocking(null);
      notifySuccess(`${p.title} is locked`);
      void invalidateElectionData(client);
    },
    onError: (e) => {
      setLocking(null);
      notifyError(e, "Failed to lock the position");
    },
  });
  return (
    <Card>
      <CardHeader title="Verifiable positions" description="Lock each one once its trustees and credentials are in. It locks itself at its start if both are in." />
      {positions.isPending ? (
        <StateMessage busy>Loading positions...</StateMessage>
      ) : positions.isError ? (
        <StateMessage>{errorMessage(positions.error, "Failed to load the positions")}</StateMessage>
      ) : positions.data.length === 0 ? (
        <StateMessage>No verifiable position yet. Tick 'Verifiable ballot' on Create Positions or Edit Position.</StateMessage>
      ) : (
        <ul className="divide-y divide-slate-100 px-5">
          {positions.data.map((p) => (
            <li key={p._id} aria-label={p.title} className="flex flex-wrap items-center justify-between gap-3 py-3 text-sm">
              <div>
                <p className="flex items-center gap-2 font-semibold text-slate-900">
                  {p.title} <StateBadge state={p.belenios!.state} />
                </p>
                <p className="text-slate-600">
                  {stateHelp[p.belenios!.state]} Starts {formatDateTime(p.startTime)}.
                </p>
              </div>
              {p.belenios!.state !== "setup" && Date.parse(p.endTime) <= Date.now() && (
                <Link to="/admin/who-voted" search={{ position: p._id }} className={buttonClass("secondary", "sm")} aria-label={`Who voted for ${p.title}`}>
                  Who voted
                </Link>
              )}
              {canWrite && p.belenios!.state === "setup" && (
                <Button variant="secondary" size="sm" disabled={!online} onClick={() => setLocking(p)} aria-label={`Lock ${p.title}`}>
                  Lock
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
      <ConfirmDeleteDialog
        title="Lock Position"
        confirmLabel="Lock"
        pendingLabel="Locking..."
        tone="change"
        open={locking !== null}
        pending={lock.isPending}
        onOpenChange={(open) => !open && setLocking(null)}
        onConfirm={() => locking && lock.mutate(locking)}
      >
        <p>Lock {locking?.title}?</p>
        <p>Its candidates, trustees and credentials can no longer change, and its ballot box opens to the public. This cannot be undone.</p>
      </ConfirmDeleteDialog>
    </Card>
  );
}
