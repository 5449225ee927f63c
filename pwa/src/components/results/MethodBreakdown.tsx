import { canViewAdmin, formatPercent, votePercentage, type PositionResult } from "@evoting/shared";
import { methodSummary } from "../../lib/ballot-method";
import { Avatar } from "../ui/Avatar";
import { Badge } from "../ui/Badge";
import { useSession } from "../../auth/use-session";
import { RecountNote } from "./RecountNote";
import { CountRounds } from "./CountRounds";
import { methodOutcome } from "./method-outcome";
import { outcomeWord, useProvisional } from "./provisional";
import { useClosedCountText } from "./use-closed-count";

interface Bar {
  key: string;
  name: string;
  photo?: string | null;
  votes: number;
  pct: number;
  tag?: "Elected" | "Leading" | "Tie";
}

function Bars({ bars, label }: { bars: Bar[]; label: string }) {
  return (
    <ul className="space-y-4">
      {bars.map((bar) => (
        <li key={bar.key}>
          <div className="mb-1.5 flex items-center gap-3">
            {bar.photo !== undefined && <Avatar src={bar.photo} name={bar.name} className="size-8" />}
            <span className="min-w-0 flex-1 truncate font-medium text-slate-900">{bar.name}</span>
            {bar.tag && <Badge tone={bar.tag === "Elected" ? "green" : bar.tag === "Leading" ? "indigo" : "amber"}>{bar.tag}</Badge>}
            <span className="text-sm tabular-nums text-slate-700">
              {bar.votes} · <span className="font-semibold text-slate-900">{formatPercent(bar.pct)}</span>
            </span>
          </div>
          <div
            className="h-3 overflow-hidden rounded-full bg-slate-100"
            role="meter"
            aria-label={`${bar.name} ${label}`}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={Number(bar.pct.toFixed(1))}
            aria-valuetext={formatPercent(bar.pct)}
          >
            <div className={`h-full rounded-full transition-[width] duration-700 ${bar.tag === "Elected" || bar.tag === "Leading" ? "bg-indigo-600" : "bg-indigo-300"}`} style={{ width: `${bar.pct}%` }} />
          </div>
        </li>
      ))}
    </ul>
  );
}

/**
 * The body of a several-seat, ranked or referendum position's results card: the outcome in
 * words, the bars (marks per candidate as a share of the ballots; first preferences; Yes and No),
 * and for a counted ranked position every stage of the count and its BLT file for the admin.
 */
export function MethodBreakdown({ result }: { result: PositionResult }) {
  const outcome = methodOutcome(result);
  const provisional = useProvisional();
  const closed = useClosedCountText(result);
  const role = useSession()?.user.role;
  const sorted = [...result.breakdown].sort((a, b) => b.votes - a.votes || a.name.localeCompare(b.name));
  const abstentions = result.abstentions ?? 0;

  if (result.method === "referendum") {
    const o = result.referendum ?? { yes: 0, no: 0, abstentions: 0, passed: false };
    const base = o.yes + o.no;
    return (
      <div className="space-y-4 px-5 py-4" data-testid={`method-${result.positionId}`}>
        {result.question && <p className="font-medium text-slate-900">{result.question}</p>}
        <p className="text-sm text-slate-700">
          Passes with: {outcome.kind === "referendum" ? outcome.threshold : "More Yes than No"}
          {outcome.kind !== "no-votes" && (
            <>
              {" · "}
              <strong className={o.passed ? "text-green-800" : "text-red-800"}>{outcomeWord(o.passed ? "passed" : "not-passed", provisional)}</strong>
            </>
          )}
        </p>
        <Bars
          label="share of Yes and No"
          bars={[
            { key: "yes", name: "Yes", votes: o.yes, pct: votePercentage(o.yes, base) },
            { key: "no", name: "No", votes: o.no, pct: votePercentage(o.no, base) },
          ]}
        />
        <p className="text-sm text-slate-600" data-testid="abstentions">
          Abstentions: {o.abstentions} (not counted in the percentages)
        </p>
      </div>
    );
  }

  const ranked = result.method === "ranked";
  const full = ranked && result.count === "full";
  // Several seats: a share of the ballots (each marks up to `seats`); ranked: of the first preferences.
  const base = ranked ? sorted.reduce((n, b) => n + b.votes, 0) : result.totalVotes - abstentions;
  const elected = new Set(result.elected ?? []);
  const tied = new Set(result.tied ?? []);
  return (
    <div className="space-y-4 px-5 py-4" data-testid={`method-${result.positionId}`}>
      <p className="text-sm text-slate-700" data-testid={`method-outcome-${result.positionId}`}>
        {methodSummary(result)}
        {outcome.kind === "elected" && outcome.elected.length > 0 && <> · {outcomeWord("elected", provisional)}: <strong>{outcome.elected.join(", ")}</strong></>}
        {outcome.kind === "elected" && outcome.tied.length > 0 && (
          <> · Tie for the last seat{(result.seats ?? 1) - outcome.elected.length === 1 ? "" : "s"}: <strong>{outcome.tied.join(", ")}</strong></>
        )}
        {outcome.kind === "first-preferences" && (closed ? ` · First preferences. ${closed}` : " · First preferences while voting is open; the full count follows the close.")}
      </p>
      {result.breakdown.length === 0 ? (
        <p className="py-2 text-center text-slate-600">No candidates available for this position.</p>
      ) : (
        <Bars
          label={ranked ? "share of first preferences" : "share of ballots"}
          bars={sorted.map((b) => ({
            key: b.candidateId,
            name: b.name,
            photo: b.photo,
            votes: b.votes,
            pct: votePercentage(b.votes, base),
            tag: elected.has(b.candidateId) ? (provisional ? "Leading" : "Elected") : tied.has(b.candidateId) ? "Tie" : undefined,
          }))}
        />
      )}
      {ranked && <p className="text-xs text-slate-600">Bars show first preferences{full ? "; the stages below transfer the rest" : ""}.</p>}
      {abstentions > 0 && (
        <p className="text-sm text-slate-600" data-testid="abstentions">
          Abstained: {abstentions} (not counted in the percentages)
        </p>
      )}
      {full && <CountRounds result={result} />}
      {full && canViewAdmin(role) && <RecountNote result={result} download />}
    </div>
  );
}
