import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { declaredElectionsQuery } from "../../data/elections";
import { formatDateTime } from "../../lib/format";
import { PageHeader } from "../../components/ui/PageHeader";
import { Card } from "../../components/ui/Card";
import { StateMessage } from "../../components/ui/Spinner";

/** /elections: every declared election, newest first, each opening its archive. */
export function PastElectionsPage() {
  const elections = useQuery(declaredElectionsQuery());
  return (
    <div>
      <PageHeader title="Past Elections" description="Every declared election with its results, results sheet and counted ballots, exactly as they were published." />
      {elections.isPending ? (
        <StateMessage busy>Loading past elections...</StateMessage>
      ) : elections.isError ? (
        <StateMessage>Failed to load past elections</StateMessage>
      ) : elections.data.length === 0 ? (
        <StateMessage>No election has been declared yet.</StateMessage>
      ) : (
        <ul className="space-y-3">
          {elections.data.map((e) => (
            <li key={e.id}>
              <Card className="p-5">
                <Link to="/elections/$id" params={{ id: String(e.id) }} className="focus-ring font-semibold text-indigo-800 underline-offset-2 hover:underline">
                  {e.title}
                </Link>
                {e.subtitle && <p className="text-sm text-slate-700">{e.subtitle}</p>}
                <p className="mt-1 text-sm text-slate-600">
                  Voting {formatDateTime(e.startTime)} to {formatDateTime(e.endTime)}
                  {e.declaredAt && `; results declared ${formatDateTime(e.declaredAt)}`}
                </p>
              </Card>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
