/**
 * Audit Log: every admin action, newest first, 50 a page, filtered by action and
 * by actor (part of a name or matric number), with 'Export CSV' of the filtered log. Read-only
 * for admins and observers alike.
 */
import { useEffect, useState, type FormEvent } from "react";
import { useNavigate, useSearch } from "@tanstack/react-router";
import { useQuery } from "@tanstack/react-query";
import { AUDIT_PAGE_SIZE, type AuditVerification } from "@evoting/shared";
import type { AuditFilters } from "../../api/accountability";
import { auditQuery, auditVerifyQuery } from "../../data/accountability";
import { auditSearch, withoutDefaults } from "../../data/list-search";
import { formatDateTime, formatShortDateTime, localTimeZone, zoneOffsetName } from "../../lib/format";
import { BackToAdminButton } from "../../components/admin/BackToAdminButton";
import { ExportCsvButton } from "../../components/admin/ExportCsvButton";
import { PageHeader } from "../../components/ui/PageHeader";
import { Card } from "../../components/ui/Card";
import { Button } from "../../components/ui/Button";
import { StateMessage } from "../../components/ui/Spinner";
import { FieldShell, inputClass } from "../../components/ui/Field";

const toFilters = (search: unknown): AuditFilters => {
  const s = auditSearch((search ?? {}) as Record<string, unknown>);
  return { action: s.action, actor: s.actor, page: s.page ?? 1 };
};

export function AuditLogPage() {
  // The filters and page live in the URL (data/list-search.ts): shareable, reload-safe, Back works.
  const filters = toFilters(useSearch({ strict: false }));
  const navigate = useNavigate();
  const setFilters = (next: Partial<AuditFilters>) =>
    void navigate({ to: ".", search: (prev: unknown) => withoutDefaults({ ...toFilters(prev), ...next }) });
  const [actorDraft, setActorDraft] = useState(filters.actor ?? "");
  // Back or a shared link changed the actor: the box shows it.
  useEffect(() => setActorDraft(filters.actor ?? ""), [filters.actor]);
  const query = useQuery(auditQuery(filters));
  const verify = useQuery(auditVerifyQuery());
  const data = query.data;
  const pages = data ? Math.max(1, Math.ceil(data.total / AUDIT_PAGE_SIZE)) : 1;
  const exportQuery = new URLSearchParams(
    Object.entries({ action: filters.action ?? "", actor: filters.actor ?? "" }).filter(([, v]) => v !== ""),
  ).toString();

  const applyActor = (event: FormEvent) => {
    event.preventDefault();
    setFilters({ actor: actorDraft.trim() || undefined, page: 1 });
  };

  return (
    <div>
      <PageHeader
        title="Audit Log"
        description="Every admin action, newest first. Each entry carries a hash of the one before it, so a changed or removed entry is detected."
        actions={
          <>
            <BackToAdminButton />
            <ExportCsvButton path={`/admin/audit/export.csv${exportQuery ? `?${exportQuery}` : ""}`} filename="audit-log.csv" failed="Failed to export the audit log" />
          </>
        }
      />

      <ChainStatus verify={verify.data} failed={verify.isError} />

      <form onSubmit={applyActor} className="mb-4 flex flex-wrap items-end gap-3" role="search" aria-label="Filter the audit log">
        <FieldShell label="Action">
          {({ id }) => (
            <select
              id={id}
              className={inputClass}
              value={filters.action ?? ""}
              onChange={(e) => setFilters({ action: e.target.value || undefined, page: 1 })}
            >
              <option value="">All actions</option>
              {(data?.actions ?? []).map((a) => (
                <option key={a} value={a}>
                  {a}
                </option>
              ))}
            </select>
          )}
        </FieldShell>
        <FieldShell label="Actor">
          {({ id }) => (
            <input id={id} className={inputClass} placeholder="Name or matric number" value={actorDraft} onChange={(e) => setActorDraft(e.target.value)} />
          )}
        </FieldShell>
        <Button type="submit" variant="secondary">
          Filter
        </Button>
      </form>

      <Card className="overflow-hidden">
        {query.isPending ? (
          <StateMessage busy>Loading the audit log...</StateMessage>
        ) : query.isError ? (
          <StateMessage>Failed to load the audit log</StateMessage>
        ) : data!.items.length === 0 ? (
          <StateMessage>No entries match.</StateMessage>
        ) : (
          // Focusable so keyboard users can scroll it sideways on a narrow screen.
          <div className="focus-ring overflow-x-auto" tabIndex={0} role="region" aria-label="Audit log entries">
            <table className="w-full min-w-[56rem] text-left text-sm">
              <caption className="sr-only">
                Audit log entries, newest first, page {filters.page} of {pages}. Times in {localTimeZone()}.
              </caption>
              <thead className="bg-slate-50 text-xs font-semibold uppercase tracking-wide text-slate-600">
                <tr>
                  {["#", "Time", "Actor", "Action", "Target", "Summary", "Address"].map((h) => (
                    <th key={h} scope="col" className="px-4 py-3">
                      {h}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {data!.items.map((e) => (
                  <tr key={e._id} className="align-top hover:bg-slate-50">
                    <td className="px-4 py-3 tabular-nums text-slate-500">{e.seq}</td>
                    <td className="min-w-[7rem] px-4 py-3 text-slate-700">
                      <time dateTime={e.at}>{formatDateTime(e.at)}</time>
                    </td>
                    <td className="px-4 py-3">
                      <span className="font-medium text-slate-900">{e.actor.name}</span>
                      <span className="block text-xs text-slate-600">{e.actor.matricNumber}</span>
                    </td>
                    <td className="px-4 py-3">
                      <code className="rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-800">{e.action}</code>
                    </td>
                    <td className="min-w-[8rem] max-w-[14rem] px-4 py-3 text-slate-700 [overflow-wrap:anywhere]">{e.target}</td>
                    {/* Ids and digests break anywhere: unbroken, they pushed the summary past a 1280 px screen. */}
                    <td className="min-w-[12rem] px-4 py-3 text-slate-800 [overflow-wrap:anywhere]">
                      <SummaryText summary={e.summary} />
                    </td>
                    <td className="px-4 py-3 text-slate-600">{e.address}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Card>

      <nav aria-label="Audit log pages" className="mt-4 flex items-center justify-between gap-3">
        <Button variant="secondary" disabled={filters.page <= 1} onClick={() => setFilters({ page: filters.page - 1 })}>
          Previous
        </Button>
        <p aria-live="polite" className="text-sm text-slate-700">
          {data ? `Page ${filters.page} of ${pages} · ${data.total} ${data.total === 1 ? "entry" : "entries"}` : ""}
        </p>
        <Button variant="secondary" disabled={!data || filters.page >= pages} onClick={() => setFilters({ page: filters.page + 1 })}>
          Next
        </Button>
      </nav>
    </div>
  );
}

/** The chain check of `npm run audit`, as the server sees it now. */
function ChainStatus({ verify, failed }: { verify: AuditVerification | undefined; failed: boolean }) {
  if (failed) return <p className="mb-4 rounded-lg bg-slate-100 px-3 py-2.5 text-sm text-slate-800">The chain could not be checked just now.</p>;
  if (!verify) return null;
  if (verify.ok) {
    return (
      <p className="mb-4 rounded-lg bg-green-50 px-3 py-2.5 text-sm text-green-900" data-testid="chain-status">
        Chain intact: {verify.entries} {verify.entries === 1 ? "entry" : "entries"}, head{" "}
        <code className="break-all text-xs">{verify.head}</code>
      </p>
    );
  }
  return (
    <div role="alert" className="mb-4 rounded-lg bg-red-50 px-3 py-2.5 text-sm text-red-900" data-testid="chain-status">
      <p className="font-semibold">The audit log has been tampered with:</p>
      <ul className="mt-1 list-disc pl-5">
        {verify.problems.map((p, i) => (
          <li key={i}>
            Entry {p.seq}: {p.problem}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** An instant as the server writes it in a summary (UTC, ISO 8601). */
const ISO_INSTANT = /(\d{4}-\d\d-\d\dT\d\d:\d\d(?::\d\d(?:\.\d+)?)?(?:Z|[+-]\d\d:\d\d))/;

/**
 * A summary with each instant in it on the reader's wall clock ("2 Dec 2026, 21:51 GMT+1"). The
 * stored summary keeps the UTC instant (it is part of the hash chain and the CSV export); the
 * <time> element keeps it for machines.
 */
function SummaryText({ summary }: { summary: string }) {
  // split() with a capturing group: every odd part is an instant.
  const parts = summary.split(ISO_INSTANT);
  return (
    <>
      {parts.map((part, i) =>
        i % 2 === 1 && !Number.isNaN(Date.parse(part)) ? (
          <time key={i} dateTime={part}>
            {formatShortDateTime(part)} {zoneOffsetName(part)}
          </time>
        ) : (
          part
        ),
      )}
    </>
  );
}
