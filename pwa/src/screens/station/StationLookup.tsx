import { useId, useState } from "react";
import { messages, type BallotPosition, type RollEntry } from "@evoting/shared";
import { TextField } from "../../components/ui/Field";
import { Badge } from "../../components/ui/Badge";
import { Button } from "../../components/ui/Button";
import { Card, CardHeader } from "../../components/ui/Card";
import { ballotFor, lookUp } from "../../station/station-device";

interface StationLookupProps {
  roll: readonly RollEntry[];
  positions: readonly BallotPosition[];
  served: ReadonlySet<string>;
  now: number;
  onStart: (voter: RollEntry) => void;
}

/** The officer finds the voter (after checking their student ID card) and starts their ballot. */
export function StationLookup({ roll, positions, served, now, onStart }: StationLookupProps) {
  const [query, setQuery] = useState("");
  const resultsId = useId();
  const found = lookUp(roll, query);
  const titleOf = (id: string) => positions.find((p) => p._id === id)?.title ?? id;

  return (
    <Card>
      <CardHeader title="Look up a voter" description="Check the voter's student ID card, then start their ballot." />
      <div className="space-y-4 px-5 py-4">
        <TextField
          label="Matric number or name"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          autoComplete="off"
          autoFocus
          aria-controls={resultsId}
        />
        <ul id={resultsId} aria-live="polite" className="divide-y divide-slate-100">
          {query.trim() && found.length === 0 && <li className="py-3 text-sm text-slate-600">No voter on the roll matches.</li>}
          {found.map((voter) => {
            const here = served.has(voter._id);
            const open = ballotFor(voter, positions, now);
            return (
              <li key={voter._id} className="flex flex-wrap items-center justify-between gap-3 py-3" data-testid={`voter-${voter.matricNumber}`}>
                <div className="min-w-0">
                  <p className="font-medium text-slate-900">{voter.name}</p>
                  <p className="text-sm text-slate-600">
                    {voter.matricNumber}
                    {voter.groups.length > 0 && ` · ${voter.groups.join(", ")}`}
                  </p>
                  {voter.voted.length > 0 && (
                    <p className="text-sm text-slate-600">Already voted: {voter.voted.map(titleOf).join(", ")}</p>
                  )}
                </div>
                <div className="flex items-center gap-2">
                  {here && <Badge tone="green">{messages.stationAlreadyVotedHere}</Badge>}
                  {!here && open.length === 0 && <Badge>{messages.stationNothingToVote}</Badge>}
                  <Button onClick={() => onStart(voter)} disabled={here || open.length === 0} aria-label={`Start ballot for ${voter.name}`}>
                    Start ballot
                  </Button>
                </div>
              </li>
            );
          })}
        </ul>
      </div>
    </Card>
  );
}
