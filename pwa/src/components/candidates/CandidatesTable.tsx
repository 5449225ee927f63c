import { useQuery } from "@tanstack/react-query";
import { messages } from "@evoting/shared";
import { allCandidatesQuery } from "../../data/queries";
import { Avatar } from "../ui/Avatar";
import { Card, CardHeader } from "../ui/Card";
import { StateMessage } from "../ui/Spinner";

/**
 * The home page's 'All Candidates' table: S/N, Name (photo and name), Position. Narrow cells and
 * wrapping names on a phone, so all three columns fit 390 px without scrolling sideways.
 */
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
                <th scope="col" className="w-12 py-3 pl-4 pr-2 sm:w-16 sm:px-5">
                  S/N
                </th>
                <th scope="col" className="px-2 py-3 sm:px-5">
                  Name
                </th>
                <th scope="col" className="py-3 pl-2 pr-4 sm:px-5">
                  Position
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {candidates.map((c, i) => (
                <tr key={c._id} className="hover:bg-slate-50">
                  <td className="py-3 pl-4 pr-2 font-medium text-slate-600 sm:px-5">{i + 1}.</td>
                  <td className="px-2 py-3 sm:px-5">
                    <div className="flex items-center gap-2 sm:gap-3">
                      <Avatar src={c.photo} name={c.name} className="size-8 shrink-0 sm:size-9" />
                      <span className="min-w-0 break-words font-semibold text-slate-900">{c.name}</span>
                    </div>
                  </td>
                  <td className="break-words py-3 pl-2 pr-4 text-slate-700 sm:px-5">{c.positionTitle ?? c.position?.title}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Card>
  );
}
