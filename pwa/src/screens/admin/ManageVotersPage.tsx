import { useEffect, useState } from "react";
import { useNavigate, useSearch } from "@tanstack/react-router";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { messages, type VoterListItem } from "@evoting/shared";
import { queryKeys } from "../../data/query-keys";
import { rollApi, type VoterFilters } from "../../api/roll";
import { rollGroupsQuery, votersQuery } from "../../data/roll";
import { votersSearch, withoutDefaults, type VotersSearch } from "../../data/list-search";
import { notifyError, notifySuccess } from "../../lib/notify";
import { useOnline } from "../../hooks/use-online";
import { useCanWriteAdmin } from "../../auth/use-session";
import { BackToAdminButton } from "../../components/admin/BackToAdminButton";
import { ConfirmDeleteDialog } from "../../components/admin/ConfirmDeleteDialog";
import { ExportCsvButton } from "../../components/admin/ExportCsvButton";
import { NeedsNetwork } from "../../components/NeedsNetwork";
import { Button } from "../../components/ui/Button";
import { FieldShell, TextField, inputClass } from "../../components/ui/Field";
import { Icon } from "../../components/ui/Icon";
import { PageHeader } from "../../components/ui/PageHeader";
import { EditVoterDialog } from "./voters/EditVoterDialog";
import { VotersTable, type VoterAction } from "./voters/VotersTable";

const toSearch = (f: VoterFilters): VotersSearch => withoutDefaults({ query: f.query, group: f.group, voted: f.voted || undefined, page: f.page });
const toFilters = (search: unknown): VoterFilters => {
  const s = votersSearch((search ?? {}) as Record<string, unknown>);
  return { query: s.query ?? "", group: s.group ?? "", voted: s.voted ?? "", page: s.page ?? 1 };
};

/** Typing waits this long before the search runs, so each keystroke is not a request. */
const SEARCH_DELAY_MS = 300;

export function ManageVotersPage() {
  const online = useOnline();
  const canWrite = useCanWriteAdmin();
  const navigate = useNavigate();
  const client = useQueryClient();
  // The filters and page live in the URL (data/list-search.ts): shareable, reload-safe, Back works.
  const filters = toFilters(useSearch({ strict: false }));
  /** A new filter is a history entry (`replace` for what typing changes), applied to the URL as it is then. */
  const setFilters = (next: Partial<VoterFilters>, replace = false) =>
    void navigate({ to: ".", search: (prev: unknown) => toSearch({ ...toFilters(prev), ...next }), replace });
  const [typed, setTyped] = useState(filters.query);
  const query = useQuery(votersQuery(filters));
  const groups = useQuery(rollGroupsQuery());
  const [pending, setPending] = useState<{ action: VoterAction; voter: VoterListItem } | null>(null);

  // Back or a shared link changed the search: the box shows it.
  useEffect(() => setTyped(filters.query), [filters.query]);
  useEffect(() => {
    if (typed === filters.query) return;
    const timer = setTimeout(() => setFilters({ query: typed, page: 1 }, true), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
    // Only typing starts the wait; the URL's own changes are followed above.
  }, [typed]);

  // Deleting the last voter of the last page leaves that page empty: step back to the new last page.
  const data = query.data;
  useEffect(() => {
    if (data && data.items.length === 0 && data.page > 1) {
      setFilters({ page: Math.max(1, Math.ceil(data.total / data.pageSize)) }, true);
    }
  }, [data]);

  const act = useMutation({
    mutationFn: ({ action, voter }: { action: "reset" | "delete"; voter: VoterListItem }) =>
      action === "reset" ? rollApi.resetPassword(voter._id) : rollApi.deleteVoter(voter._id),
    onSuccess: (_, { action }) => {
      setPending(null);
      notifySuccess(action === "reset" ? messages.resetPasswordSuccess : messages.deleteVoterSuccess);
      void client.invalidateQueries({ queryKey: queryKeys.voters });
      if (action === "delete") void client.invalidateQueries({ queryKey: queryKeys.results });
    },
    onError: (e, { action }) => notifyError(e, action === "reset" ? messages.resetPasswordFailed : messages.deleteVoterFailed),
  });

  const confirming = pending && pending.action !== "edit" ? { action: pending.action, voter: pending.voter } : null;
  const dialog = (action: "reset" | "delete") => ({
    open: confirming?.action === action,
    pending: act.isPending || !online,
    onOpenChange: (open: boolean) => !open && setPending(null),
    onConfirm: () => confirming && act.mutate(confirming),
  });
  const name = pending?.voter.name;

  return (
    <div>
      <PageHeader
        title="Manage Voters"
        description="Find and fix any voter on the roll: search by matriculation number or name."
        actions={
          <>
            <BackToAdminButton />
            <ExportCsvButton path="/admin/voters/export.csv" filename="voter-roll.csv" failed={messages.exportVotersFailed} />
            {canWrite && (
              <Button onClick={() => void navigate({ to: "/admin/voters/import" })}>
                <Icon name="upload" className="size-4" />
                Import Voters
              </Button>
            )}
          </>
        }
      />
      <NeedsNetwork online={online} className="mb-4" />
      <div role="search" aria-label="Find voters" className="mb-4 grid gap-3 sm:grid-cols-[2fr_1fr_1fr]">
        <TextField label="Search" type="search" placeholder="Matric number or name" value={typed} onChange={(e) => setTyped(e.target.value)} />
        <FieldShell label="Group">
          {({ id }) => (
            <select id={id} className={inputClass} value={filters.group} onChange={(e) => setFilters({ group: e.target.value, page: 1 })}>
              <option value="">All groups</option>
              {groups.data?.groups.map((g) => (
                <option key={g.name} value={g.name}>
                  {g.name} ({g.voters.toLocaleString("en")})
                </option>
              ))}
            </select>
          )}
        </FieldShell>
        <FieldShell label="Voted">
          {({ id }) => (
            <select id={id} className={inputClass} value={filters.voted} onChange={(e) => setFilters({ voted: e.target.value as VoterFilters["voted"], page: 1 })}>
              <option value="">All voters</option>
              <option value="yes">Voted</option>
              <option value="no">Not voted</option>
            </select>
          )}
        </FieldShell>
      </div>

      <VotersTable
        query={query}
        filtered={Boolean(filters.query || filters.group || filters.voted)}
        onAction={canWrite ? (action, voter) => setPending({ action, voter }) : undefined}
        actionsDisabled={act.isPending || !online}
        onPage={(page) => setFilters({ page })}
      />

      <EditVoterDialog voter={pending?.action === "edit" ? pending.voter : null} onClose={() => setPending(null)} />

      <ConfirmDeleteDialog title="Reset Password" confirmLabel="Reset Password" pendingLabel="Resetting..." {...dialog("reset")}>
        <p>Are you sure you want to reset the password of &quot;{name}&quot;?</p>
        <p className="rounded-lg bg-amber-50 px-3 py-2 text-amber-900">
          {pending?.voter.hasPassword ? "They will sign in with their date of birth again, and every" : "They already sign in with their date of birth; every"} device
          they are signed in on will be signed out.
        </p>
      </ConfirmDeleteDialog>

      <ConfirmDeleteDialog title="Delete Voter" confirmLabel="Delete Voter" {...dialog("delete")}>
        <p>
          Are you sure you want to delete the voter &quot;{name}&quot; ({pending?.voter.matricNumber})?
        </p>
        <p className="font-medium">This action cannot be undone.</p>
      </ConfirmDeleteDialog>
    </div>
  );
}
