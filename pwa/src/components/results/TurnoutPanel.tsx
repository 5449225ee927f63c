/**
 * Turnout for admins and observers, loaded as its own chunk: ballots per hour
 * across the voting window (plain SVG bars) and turnout per roll group. The charts are
 * pictures for sighted readers; each has the same figures as a table, which screen readers
 * read and anyone can open.
 */
import { useId } from "react";
import { useQuery } from "@tanstack/react-query";
import { formatPercent, turnout, type TurnoutReport } from "@evoting/shared";
import { turnoutQuery } from "../../data/accountability";
import { formatShortDateTime, localTimeZone } from "../../lib/format";
import { Card, CardHeader } from "../ui/Card";
import { StateMessage } from "../ui/Spinner";

const WIDTH = 640;
const HEIGHT = 180;
const AXIS = 24;

function HourlyChart({ hourly }: { hourly: TurnoutReport["hourly"] }) {
  const max = Math.max(1, ...hourly.map((h) => h.ballots));
  const slot = (WIDTH - AXIS) / Math.max(1, hourly.length);
  const bar = Math.max(1, slot * 0.8);
  // Label a handful of hours, not all of them: a long window would be unreadable.
  const every = Math.max(1, Math.ceil(hourly.length / 6));
  return (
    <svg viewBox={`0 0 ${WIDTH} ${HEIGHT + 20}`} className="h-auto w-full" aria-hidden="true" data-testid="hourly-chart">
      <line x1={AXIS} y1={HEIGHT} x2={WIDTH} y2={HEIGHT} className="stroke-slate-300" />
      <text x={0} y={12} className="fill-slate-500 text-[10px]">
        {max}
      </text>
      {hourly.map((h, i) => {
        const height = (h.ballots / max) * (HEIGHT - 16);
        const x = AXIS + i * slot + (slot - bar) / 2;
        return (
          <g key={h.hour}>
            <rect x={x} y={HEIGHT - height} width={bar} height={height} rx={2} className="fill-indigo-600" />
            {i % every === 0 && (
              <text x={x} y={HEIGHT + 14} className="fill-slate-500 text-[10px]">
                {new Date(h.hour).getHours().toString().padStart(2, "0")}:00
              </text>
            )}
          </g>
        );
      })}
    </svg>
  );
}

function DataTable({ caption, head, rows }: { caption: string; head: string[]; rows: (string | number)[][] }) {
  return (
    <table className="mt-2 w-full text-left text-sm">
      <caption className="sr-only">{caption}</caption>
      <thead className="text-xs uppercase text-slate-600">
        <tr>
          {head.map((h) => (
            <th key={h} scope="col" className="py-1 pr-3">
              {h}
            </th>
          ))}
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100">
        {rows.map((r, i) => (
          <tr key={i}>
            {r.map((cell, j) => (
              <td key={j} className="py-1 pr-3 tabular-nums">
                {cell}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export default function TurnoutPanel() {
  const query = useQuery(turnoutQuery());
  const hourlyId = useId();
  const groupsId = useId();
  return (
    <Card>
      <CardHeader title="Turnout" description={`Ballots per hour across the voting window, and turnout per voter group. Times in ${localTimeZone()}.`} />
      {query.isPending ? (
        <StateMessage busy>Loading turnout...</StateMessage>
      ) : query.isError ? (
        <StateMessage>Failed to load turnout</StateMessage>
      ) : (
        <div className="grid gap-6 px-5 py-4 lg:grid-cols-2">
          <figure aria-labelledby={hourlyId}>
            <figcaption id={hourlyId} className="mb-2 text-sm font-medium text-slate-800">
              Ballots per hour
            </figcaption>
            {query.data.hourly.length === 0 ? (
              <p className="text-sm text-slate-600">No voting window yet.</p>
            ) : (
              <>
                <HourlyChart hourly={query.data.hourly} />
                <details className="mt-2 text-sm">
                  <summary className="cursor-pointer text-indigo-700">Show as a table</summary>
                  <DataTable
                    caption="Ballots per hour"
                    head={["Hour", "Ballots"]}
                    rows={query.data.hourly.map((h) => [formatShortDateTime(h.hour), h.ballots])}
                  />
                </details>
              </>
            )}
          </figure>
          <figure aria-labelledby={groupsId}>
            <figcaption id={groupsId} className="mb-2 text-sm font-medium text-slate-800">
              Turnout per voter group
            </figcaption>
            {query.data.groups.length === 0 ? (
              <p className="text-sm text-slate-600">No voters yet.</p>
            ) : (
              <>
                <ul className="space-y-2" aria-hidden="true">
                  {query.data.groups.map((g) => {
                    const pct = turnout(g.voted, g.registered);
                    return (
                      <li key={g.group} className="text-sm">
                        <div className="flex justify-between">
                          <span>{g.group || "No group"}</span>
                          <span className="tabular-nums">{formatPercent(pct)}</span>
                        </div>
                        <div className="h-2 rounded-full bg-slate-200">
                          <div className="h-2 rounded-full bg-green-600" style={{ width: `${pct}%` }} />
                        </div>
                      </li>
                    );
                  })}
                </ul>
                <details className="mt-2 text-sm">
                  <summary className="cursor-pointer text-indigo-700">Show as a table</summary>
                  <DataTable
                    caption="Turnout per voter group"
                    head={["Group", "Registered", "Voted", "Turnout"]}
                    rows={query.data.groups.map((g) => [g.group || "No group", g.registered, g.voted, formatPercent(turnout(g.voted, g.registered))])}
                  />
                </details>
              </>
            )}
          </figure>
        </div>
      )}
    </Card>
  );
}
