import { useQuery } from "@tanstack/react-query";
import { messages } from "@evoting/shared";
import { ballotPositionsQuery } from "../data/queries";
import { Avatar } from "../components/ui/Avatar";
import { Badge } from "../components/ui/Badge";
import { Card, CardHeader } from "../components/ui/Card";
import { PageHeader } from "../components/ui/PageHeader";
import { Spinner } from "../components/ui/Spinner";

/** Candidates grouped by position, as cards with photo, name and a position badge. */
export function CandidatesPage() {
  const { data, isPending, isError } = useQuery(ballotPositionsQuery());
  // A referendum is a question, not a race: it has no candidates to meet.
  const positions = data?.filter((p) => p.method !== "referendum");

  return (
    <div>
      <PageHeader title="All Candidates" description="Meet everyone standing in this election, grouped by position." />
      {isPending ? (
        <div className="flex justify-center py-16">
          <Spinner className="size-8 text-indigo-600" label="Loading candidates..." />
        </div>
      ) : isError ? (
        <Card role="alert" className="px-6 py-10 text-center font-medium text-red-700">
          {messages.loadCandidatesFailed}
        </Card>
      ) : !positions || positions.length === 0 ? (
        <Card className="px-6 py-12 text-center text-slate-600">No positions or candidates available at this time.</Card>
      ) : (
        <div className="space-y-6">
          {positions.map((position) => (
            <Card key={position._id}>
              <CardHeader
                title={position.title}
                description={`${position.candidates.length} ${position.candidates.length === 1 ? "candidate" : "candidates"}`}
              />
              {position.candidates.length === 0 ? (
                <p className="px-5 py-8 text-center text-slate-600">No candidates have been registered for this position yet.</p>
              ) : (
                <ul className="grid gap-4 p-5 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4">
                  {position.candidates.map((c) => (
                    <li key={c._id} className="flex flex-col items-center rounded-xl border border-slate-200 bg-slate-50 p-5 text-center">
                      <Avatar src={c.photo} name={c.name} className="size-24 ring-4 ring-white shadow" />
                      <p className="mt-3 font-semibold text-slate-900">{c.name}</p>
                      <Badge tone="indigo" className="mt-2">
                        {position.title}
                      </Badge>
                      {/* The candidate's own words, as text (React escapes it; never HTML). */}
                      {c.manifesto && (
                        <p className="mt-3 w-full whitespace-pre-line break-words text-left text-sm text-slate-700" data-testid={`manifesto-${c._id}`}>
                          {c.manifesto}
                        </p>
                      )}
                    </li>
                  ))}
                </ul>
              )}
            </Card>
          ))}
        </div>
      )}
    </div>
  );
}
