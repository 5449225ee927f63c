/**
 * The public Ballot Box (docs/verifiable.md): for each verifiable position, the board's
 * fingerprint, every ballot's tracker, a search for one's own, the archive and the commands that
 * check it with belenios-tool. No sign-in: observers, candidates' agents and voters alike.
 */
import { useId, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { getRouteApi, Link } from "@tanstack/react-router";
import type { VerifiablePositionRef } from "@evoting/shared";
import { archivePath } from "../api/verifiable";
import { ballotBoxPositionsQuery, boardQuery } from "../data/verifiable";
import { useSession } from "../auth/use-session";
import { Logo } from "../components/layout/Logo";
import { Card } from "../components/ui/Card";
import { StateMessage } from "../components/ui/Spinner";
import { inputClass } from "../components/ui/Field";
import { Badge } from "../components/ui/Badge";

const route = getRouteApi("/ballot-box");

const STATE_LABEL: Record<VerifiablePositionRef["state"], string> = {
  open: "Taking ballots",
  tallying: "Ballots closed: waiting for the trustees to decrypt",
  decrypted: "Counted and decrypted",
};

export function BallotBoxPage() {
  const signedIn = useSession() !== null;
  const { tracker = "" } = route.useSearch();
  const positions = useQuery(ballotBoxPositionsQuery());
  return (
    <div className="min-h-dvh">
      <header className="flex h-16 items-center justify-between border-b border-slate-200 bg-white px-4 sm:px-6">
        <Logo />
        <Link to={signedIn ? "/" : "/login"} className="focus-ring rounded-lg px-3 py-2 text-sm font-medium text-indigo-700 hover:bg-indigo-50">
          {signedIn ? "Back to the app" : "Sign in"}
        </Link>
      </header>
      <main id="main" className="mx-auto w-full max-w-4xl space-y-6 px-4 py-6 sm:px-6 lg:py-8">
        <div>
          <h1 className="text-2xl font-bold text-slate-900">Ballot Box</h1>
          <p className="mt-1 text-slate-600">
            Every encrypted ballot of each verifiable position, as this server holds it. Find your ballot tracker to see that your ballot
            was recorded as your device encrypted it, and check the whole election yourself with Belenios's own tool: you need not trust
            this server.
          </p>
        </div>
        {positions.isPending ? (
          <Card>
            <StateMessage busy>Loading ballot boxes...</StateMessage>
          </Card>
        ) : positions.isError ? (
          <Card role="alert" className="px-6 py-10 text-center font-medium text-red-700">
            The ballot boxes could not be loaded. Check your connection and try again.
          </Card>
        ) : positions.data.length === 0 ? (
          <Card className="px-6 py-12 text-center text-slate-600">No verifiable position has opened its ballot box yet.</Card>
        ) : (
          positions.data.map((p) => <PositionBox key={p.positionId} position={p} initialTracker={tracker} />)
        )}
      </main>
    </div>
  );
}

function PositionBox({ position, initialTracker }: { position: VerifiablePositionRef; initialTracker: string }) {
  const board = useQuery(boardQuery(position.positionId));
  const [query, setQuery] = useState(initialTracker);
  const searchId = useId();
  const headingId = useId();
  const wanted = query.trim();
  const found = wanted && board.data ? board.data.trackers.includes(wanted) : null;
  const origin = typeof window === "undefined" ? "" : window.location.origin;
  const file = `${position.uuid}.bel`;
  const commands = [
    "mkdir ballot-box && cd ballot-box",
    `curl -o ${file} ${origin}${archivePath(position.positionId)}`,
    "belenios-tool election verify --dir .",
    "tar -tf " + file + " | tail -1    # the last event: its name is the fingerprint",
  ].join("\n");

  return (
    <Card aria-labelledby={headingId} role="region" data-testid={`ballot-box-${position.positionId}`}>
      <div className="space-y-4 px-5 py-4">
        <div className="flex flex-wrap items-start justify-between gap-2">
          <h2 id={headingId} className="text-lg font-semibold text-slate-900">
            {position.title}
          </h2>
          <Badge tone={position.state === "open" ? "green" : "gray"}>{STATE_LABEL[position.state]}</Badge>
        </div>
        {board.isPending ? (
          <StateMessage busy>Loading the ballot box...</StateMessage>
        ) : board.isError ? (
          <p role="alert" className="font-medium text-red-700">
            This ballot box could not be loaded. Check your connection and try again.
          </p>
        ) : (
          <>
            <dl className="grid gap-2 text-sm sm:grid-cols-[10rem_1fr]">
              <dt className="font-medium text-slate-700">Fingerprint</dt>
              <dd>
                <code className="break-all font-mono text-slate-900" data-testid="fingerprint">
                  {board.data.fingerprint ?? "none yet"}
                </code>
              </dd>
              <dt className="font-medium text-slate-700">Ballots</dt>
              <dd className="tabular-nums text-slate-900">{board.data.trackers.length}</dd>
              <dt className="font-medium text-slate-700">Election uuid</dt>
              <dd>
                <code className="font-mono text-slate-900">{position.uuid}</code>
              </dd>
            </dl>
            <div className="space-y-1.5">
              <label htmlFor={searchId} className="block text-sm font-medium text-slate-800">
                Find your tracker
              </label>
              <input
                id={searchId}
                type="search"
                autoComplete="off"
                spellCheck={false}
                className={`${inputClass} font-mono`}
                value={query}
                onChange={(e) => setQuery(e.target.value)}
              />
              <div aria-live="polite">
                {found === true && (
                  <p className="rounded-lg bg-green-50 px-3 py-2.5 text-sm font-medium text-green-800">
                    Found: this ballot is in the ballot box, recorded as it was cast.
                  </p>
                )}
                {found === false && (
                  <p className="rounded-lg bg-red-50 px-3 py-2.5 text-sm font-medium text-red-800">
                    Not found: no ballot in this ballot box has this tracker. Check that you copied it whole; a ballot queued offline
                    appears once your device has sent it.
                  </p>
                )}
              </div>
            </div>
            <details className="text-sm">
              <summary className="cursor-pointer font-medium text-slate-800">All {board.data.trackers.length} trackers</summary>
              <ul tabIndex={0} aria-label={`Trackers in ${position.title}`} className="focus-ring mt-2 max-h-72 space-y-1 overflow-y-auto font-mono text-xs text-slate-800">
                {board.data.trackers.map((t) => (
                  <li key={t} className="break-all">
                    {t}
                  </li>
                ))}
              </ul>
            </details>
          </>
        )}
        <div className="space-y-2 text-sm">
          <a href={archivePath(position.positionId)} download={file} className="font-medium text-indigo-700 underline">
            Download the archive ({file})
          </a>
          <p className="text-slate-700">
            Check it with Belenios's own tool (Debian: <code className="font-mono">apt-get install belenios-tool</code>):
          </p>
          {/* Wrapped, not scrolled sideways: a scrolling block would need keyboard access of its own (axe). */}
          <pre className="whitespace-pre-wrap break-all rounded-lg bg-slate-900 px-3 py-2.5 font-mono text-xs text-slate-100" data-testid="verify-commands">
            {commands}
          </pre>
          <p className="text-slate-600">
            It prints "all checks passed" when every ballot's proofs, the encrypted tally, the trustees' decryptions and the result hold.
            Keep the fingerprint you checked: a later archive must contain it (
            <code className="font-mono">belenios-tool election verify-diff --dir1=OLD --dir2=NEW</code>).
          </p>
        </div>
      </div>
    </Card>
  );
}
