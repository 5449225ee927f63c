import { useQuery } from "@tanstack/react-query";
import { messages } from "@evoting/shared";
import { allCandidatesQuery } from "../../data/queries";
import { Avatar } from "../ui/Avatar";
import { Card, CardHeader } from "../ui/Card";
import { StateMessage } from "../ui/Spinner";

/** The home page's 'All Candidates' table: S/N, Name (photo and name), Position. */
export function CandidatesTable() {
  const { data: candidates, isPending, isError } = useQuery(allCandidatesQuery());

  return (
    <Card>
      <CardHeader title="All Candidates" />
      {isPending ? (
        <StateMessage busy>Loading candidates...</StateMessage>
      ) : isError ? (
        <StateMessage>{messages.loadCandidatesFailed}</StateMessage>
      ) : candidates.length === 0 ? (
        <StateMessage>No candidates found.</StateMessage>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full text-left text-sm">
            <thead className="bg-slate-50 text-xs font-semibold uppercase tracking-wide text-slate-600">
              <tr>
                <th scope="col" className="w-16 px-5 py-3">
                  S/N
                </th>
                <th scope="col" className="px-5 py-3">
                  Name
                </th>
                <th scope="col" className="px-5 py-3">
                  Position
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {candidates.map((c, i) => (
                <tr key={c._id} className="hover:bg-slate-50">
                  <td className="px-5 py-3 font-medium text-slate-600">{i + 1}.</td>
                  <td className="px-5 py-3">
                    <div className="flex items-center gap-3">
                      <Avatar src={c.photo} name={c.name} className="size-9" />
                      <span className="font-semibold text-slate-900">{c.name}</span>
                    </div>
                  </td>
                  <td className="px-5 py-3 text-slate-700">{c.positionTitle ?? c.position?.title}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Card>
  );
}
