import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { messages, type ElectionSettings, type Position } from "@evoting/shared";
import { electionApi } from "../../api/election";
import { electionQuery, invalidateSettings } from "../../data/election";
import { adminPositionsQuery } from "../../data/queries";
import { formatDateTime } from "../../lib/format";
import { notifyError, notifySuccess } from "../../lib/notify";
import { useNow } from "../../hooks/use-now";
import { Button } from "../ui/Button";
import { ConfirmDeleteDialog } from "./ConfirmDeleteDialog";

/** Positions open at `now` while the election's own window is not: voters would read 'ELECTION ENDED' above them. */
export function openOutsideWindow(positions: readonly Pick<Position, "startTime" | "endTime">[], election: Pick<ElectionSettings, "startTime" | "endTime">, now: number) {
  const inWindow = now >= Date.parse(election.startTime) && now < Date.parse(election.endTime);
  if (inWindow) return null;
  const open = positions.filter((p) => now >= Date.parse(p.startTime) && now < Date.parse(p.endTime));
  if (open.length === 0) return null;
  // The fix covers every position, so none is left outside the new window.
  const startTime = new Date(Math.min(...positions.map((p) => Date.parse(p.startTime)))).toISOString();
  const endTime = new Date(Math.max(...positions.map((p) => Date.parse(p.endTime)))).toISOString();
  return { open: open.length, startTime, endTime };
}

/** Admin Panel: says when positions are open outside the election window, and sets the window to match them. */
export function ElectionWindowNotice({ canWrite }: { canWrite: boolean }) {
  const now = useNow(30_000);
  const client = useQueryClient();
  const election = useQuery(electionQuery());
  const positions = useQuery(adminPositionsQuery());
  const [confirming, setConfirming] = useState(false);
  const save = useMutation({
    mutationFn: electionApi.saveElection,
    onSuccess: (saved) => {
      client.setQueryData(electionQuery().queryKey, (held) => ({ ...held, ...saved }));
      notifySuccess(messages.electionSettingsSaved);
      setConfirming(false);
      void invalidateSettings(client);
    },
    onError: (e) => notifyError(e, messages.electionSettingsFailed),
  });
  if (!election.data || !positions.data) return null;
  const problem = openOutsideWindow(positions.data, election.data, now);
  if (!problem) return null;
  const { title, subtitle, resultsVisibility, ballotOrder, unopposed } = election.data;
  return (
    <section role="alert" className="flex flex-wrap items-center justify-between gap-4 rounded-2xl border border-amber-300 bg-amber-50 px-5 py-4 text-amber-950">
      <div>
        <p className="font-semibold">
          {problem.open === 1 ? "A position is" : `${problem.open} positions are`} open outside the election window.
        </p>
        <p className="mt-1 text-sm">
          The window is {formatDateTime(election.data.startTime)} to {formatDateTime(election.data.endTime)}: voters see the election as not running.
        </p>
      </div>
      {canWrite && (
        <Button onClick={() => setConfirming(true)}>Match window to positions</Button>
      )}
      <ConfirmDeleteDialog
        tone="change"
        title="Match Election Window"
        confirmLabel="Update Window"
        pendingLabel="Updating..."
        open={confirming}
        pending={save.isPending}
        onOpenChange={setConfirming}
        onConfirm={() => save.mutate({ title, subtitle, resultsVisibility, ballotOrder, unopposed, startTime: problem.startTime, endTime: problem.endTime })}
      >
        <p>
          Set the election window to {formatDateTime(problem.startTime)} to {formatDateTime(problem.endTime)}, from the first position&apos;s start to the last one&apos;s end?
        </p>
      </ConfirmDeleteDialog>
    </section>
  );
}
