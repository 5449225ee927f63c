/** Latency bookkeeping and figure formatting for the bench scripts. */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i];
}

export class Latencies {
  private byKind = new Map<string, number[]>();
  add(kind: string, ms: number): void {
    let list = this.byKind.get(kind);
    if (!list) this.byKind.set(kind, (list = []));
    list.push(ms);
  }
  merge(other: Record<string, number[]>): void {
    for (const [k, v] of Object.entries(other)) for (const ms of v) this.add(k, ms);
  }
  toJSON(): Record<string, number[]> {
    return Object.fromEntries(this.byKind);
  }
  summary(): { kind: string; count: number; p50: number; p95: number; p99: number; max: number }[] {
    return [...this.byKind].map(([kind, list]) => {
      const s = [...list].sort((a, b) => a - b);
      return { kind, count: s.length, p50: percentile(s, 50), p95: percentile(s, 95), p99: percentile(s, 99), max: s[s.length - 1] };
    });
  }
}

export const ms = (n: number) => (Number.isFinite(n) ? `${n.toFixed(n < 10 ? 2 : 1)} ms` : "n/a");
export const fmt = (n: number) => Math.round(n).toLocaleString("en-US");

export function table(rows: Record<string, string | number>[]): string {
  if (rows.length === 0) return "(none)";
  const cols = Object.keys(rows[0]);
  const width = cols.map((c) => Math.max(c.length, ...rows.map((r) => String(r[c]).length)));
  const line = (cells: string[]) => cells.map((s, i) => s.padEnd(width[i])).join("  ");
  return [line(cols), line(width.map((w) => "-".repeat(w))), ...rows.map((r) => line(cols.map((c) => String(r[c]))))].join("\n");
}
