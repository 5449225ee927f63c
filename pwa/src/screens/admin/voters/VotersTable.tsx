import type { UseQueryResult } from "@tanstack/react-query";
import { messages, type VoterListItem, type VoterPage } from "@evoting/shared";
import { ManageTableHead } from "../../../components/admin/ManageTable";
import { Badge } from "../../../components/ui/Badge";
import { Button } from "../../../components/ui/Button";
import { Card } from "../../../components/ui/Card";
import { Icon } from "../../../components/ui/Icon";
import { StateMessage } from "../../../components/ui/Spinner";

export type VoterAction = "edit" | "reset" | "delete";

interface VotersTableProps {
  query: UseQueryResult<VoterPage>;
  filtered: boolean;
  /** Absent for observers: the table has no Actions column. */
  onAction?: (action: VoterAction, voter: VoterListItem) => void;
  actionsDisabled: boolean;
  onPage: (page: number) => void;
}

const HEADINGS = ["Name", "Matric Number", "Groups", "Sign-in Method", "Voted"];

/** One page of the roll, its loading/failed/empty states, and the pager. */
export function VotersTable({ query, filtered, onAction, actionsDisabled, onPage }: VotersTableProps) {
  if (query.isPending) return <Card><StateMessage busy>Loading voters...</StateMessage></Card>;
  if (query.isError) return <Card><StateMessage>{messages.loadVotersFailed}</StateMessage></Card>;
  const { items, total, page, pageSize } = query.data;
  const pages = Math.max(1, Math.ceil(total / pageSize));
  if (items.length === 0) {
    return (
      <Card>
        <StateMessage>{filtered ? "No voters match these filters." : "No voters yet. Import the roll or create users."}</StateMessage>
      </Card>
    );
  }
  return (
    <Card className="overflow-hidden">
      <div className="overflow-x-auto">
        <table className="w-full min-w-[52rem] text-left text-sm" aria-busy={query.isFetching || undefined}>
          <caption className="sr-only">Voters, page {page} of {pages}</caption>
          <ManageTableHead columns={HEADINGS} actions={Boolean(onAction)} />
          <tbody className="divide-y divide-slate-100">
            {items.map((v) => (
              <tr key={v._id} className="hover:bg-slate-50">
                <td className="px-5 py-3 font-semibold text-slate-900">{v.name}</td>
                <td className="px-5 py-3 font-mono text-xs text-slate-700">{v.matricNumber}</td>
                <td className="px-5 py-3 text-slate-700">{v.groups.length ? v.groups.join(", ") : "—"}</td>
                <td className="px-5 py-3 text-slate-700">{v.hasPassword ? "Password" : "Date of birth"}</td>
                <td className="px-5 py-3">
                  <Badge tone={v.hasVoted ? "green" : "gray"}>{v.hasVoted ? "Voted" : "Not voted"}</Badge>
                </td>
                {onAction && (
                  <td className="px-5 py-3">
                    <div className="flex justify-end gap-1">
                      <Button variant="ghost" size="sm" aria-label={`Edit ${v.name}`} disabled={actionsDisabled} onClick={() => onAction("edit", v)}>
                        Edit
                      </Button>
                      <Button
                        variant="ghost"
                        size="sm"
                        aria-label={`Reset Password of ${v.name}`}
                        disabled={actionsDisabled}
                        onClick={() => onAction("reset", v)}
                      >
                        Reset Password
                      </Button>
                      <Button
                        variant="danger-ghost"
                        size="sm"
                        aria-label={`Delete ${v.name}`}
                        disabled={actionsDisabled || v.hasVoted}
                        title={v.hasVoted ? messages.voterHasVoted : undefined}
                        onClick={() => onAction("delete", v)}
                      >
                        <Icon name="trash" className="size-4" />
                        Delete
                      </Button>
                    </div>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <nav aria-label="Pages" className="flex flex-wrap items-center justify-between gap-3 border-t border-slate-100 px-5 py-3 text-sm text-slate-700">
        <p aria-live="polite">
          {total.toLocaleString("en")} {total === 1 ? "voter" : "voters"} · Page {page} of {pages}
        </p>
        <div className="flex gap-2">
          <Button variant="secondary" size="sm" disabled={page <= 1} onClick={() => onPage(page - 1)}>
            Previous
          </Button>
          <Button variant="secondary" size="sm" disabled={page >= pages} onClick={() => onPage(page + 1)}>
            Next
          </Button>
        </div>
      </nav>
    </Card>
  );
}
