import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { nominationMessages as m, type NominationRequest } from "@evoting/shared";
import { nominationsApi } from "../../api/nominations";
import { invalidateNominations, myNominationsQuery } from "../../data/nominations";
import { notifyError, notifySuccess } from "../../lib/notify";
import { formatDateTime } from "../../lib/format";
import { useOnline } from "../../hooks/use-online";
import { electionQuery } from "../../data/election";
import { useNow } from "../../hooks/use-now";
import { buttonClass, Button } from "../ui/Button";
import { Card } from "../ui/Card";
import { NominationStateBadge } from "./NominationStateBadge";

/**
 * The voter's home: 'Confirm nomination' for each nomination that names them as proposer or
 * seconder, and while nominations are open, 'Apply to stand' (the form is its own page, so
 * home loads nothing more). Nothing shows when there is nothing to do.
 */
export function NominationsHomeCard() {
  const { data } = useQuery(myNominationsQuery());
  const { data: election } = useQuery(electionQuery());
  const now = useNow(60_000);
  if (!data) return null;
  const { mine, requests } = data;
  // Nominations close when voting starts, whatever an answer kept on this device says.
  const votingStarted = election !== undefined && now >= Date.parse(election.startTime);
  const window = { ...data.window, open: data.window.open && !votingStarted && (data.window.end === null || now < Date.parse(data.window.end)) };
  if (!window.open && mine.length === 0 && requests.length === 0) return null;
  return (
    <section aria-labelledby="nominations-home-title" className="space-y-3">
      <h2 id="nominations-home-title" className="text-xl font-bold text-slate-900">
        Nominations
      </h2>
      {requests.map((r) => (
        <ConfirmNomination key={r._id} request={r} />
      ))}
      {(window.open || mine.length > 0) && (
        <Card className="flex flex-wrap items-center justify-between gap-4 p-5">
          <div className="min-w-0 space-y-2">
            {window.open && window.end && <p className="text-slate-700">Nominations are open until {formatDateTime(window.end)}.</p>}
            {mine.length > 0 && (
              <ul className="space-y-1 text-sm" aria-label="Your applications">
                {mine.map((n) => (
                  <li key={n._id} className="flex flex-wrap items-center gap-2">
                    <span className="font-medium text-slate-900">{n.positionTitle}</span>
                    <NominationStateBadge nomination={n} />
                  </li>
                ))}
              </ul>
            )}
          </div>
          <Link to="/nominations" className={buttonClass(window.open ? "primary" : "secondary")}>
            {window.open ? "Apply to stand" : "Your applications"}
          </Link>
        </Card>
      )}
    </section>
  );
}

function ConfirmNomination({ request }: { request: NominationRequest }) {
  const client = useQueryClient();
  const online = useOnline();
  const answer = useMutation({
    mutationFn: (reply: "confirm" | "decline") => nominationsApi.answer(request._id, reply),
    onSuccess: (_, reply) => {
      notifySuccess(reply === "confirm" ? m.confirmSuccess : m.declineSuccess);
      void invalidateNominations(client);
    },
    onError: (e) => notifyError(e, m.answerFailed),
  });
  const titleId = `confirm-${request._id}`;
  return (
    <Card className="border-amber-300 bg-amber-50 p-5" role="region" aria-labelledby={titleId}>
      <h3 id={titleId} className="font-semibold text-slate-900">
        Confirm nomination
      </h3>
      <p className="mt-1 text-sm text-slate-700">
        {request.applicant.name} ({request.applicant.matricNumber}) named you as {request.role} of their application for {request.positionTitle}.
      </p>
      <div className="mt-4 flex flex-wrap gap-2">
        <Button onClick={() => answer.mutate("confirm")} disabled={answer.isPending || !online}>
          Confirm
        </Button>
        <Button variant="secondary" onClick={() => answer.mutate("decline")} disabled={answer.isPending || !online}>
          Decline
        </Button>
      </div>
    </Card>
  );
}
