/**
 * The recount of a BLT file (docs/counting.md): Scottish STV for several seats,
 * instant-runoff for one, the same count the results use (stv.ts). `npm run recount` prints
 * `stageTable` or, with --json, `recountJson`; both name candidates by their number in the file.
 */
import { bltCount, type BltFile } from "./blt.ts";
import { countInstantRunoff, countStv } from "./stv.ts";
import type { CountResult } from "./types.ts";

export interface Recount {
  file: BltFile;
  result: CountResult;
}

export function recountBlt(file: BltFile): Recount {
  // The BLT file carries no seed: a tie left to lot is drawn from its title (stageTable says so).
  const input = { ...bltCount(file), lotSeed: file.title };
  return { file, result: file.seats > 1 ? countStv(input) : countInstantRunoff(input) };
}

const fixed = (votes: number) => votes.toFixed(5);
const indexes = (ids: readonly string[]) => ids.map(Number);

export interface RecountJson {
  seats: number;
  ballots: number;
  /** STV's Droop quota (a whole number of votes, rule 46); null for instant-runoff, which has none */
  quota: number | null;
  /** 1-based BLT numbers, in the order of election */
  elected: number[];
  stages: { votes: string[]; elected: number[]; excluded: number[]; nonTransferable: string }[];
}

export function recountJson({ file, result }: Recount): RecountJson {
  return {
    seats: result.seats,
    ballots: result.ballots,
    quota: result.quota ?? null,
    elected: indexes(result.elected),
    stages: result.rounds.map((round) => ({
      votes: file.candidates.map((c) => fixed(round.votes[String(c.number)] ?? 0)),
      elected: indexes(round.elected),
      excluded: indexes(round.excluded),
      nonTransferable: fixed(round.nonTransferable),
    })),
  };
}

/** The stage table: one row per candidate, one column per stage, then what each stage did. */
export function stageTable({ file, result }: Recount): string {
  const name = (id: string) => `${id} ${file.candidates[Number(id) - 1].name}`;
  const rule = result.rule === "scottish-stv" ? "Scottish STV (SSI 2007/42)" : "instant-runoff";
  const out = [
    file.title || "(untitled)",
    `${file.candidates.length} candidates, ${result.seats} seat${result.seats === 1 ? "" : "s"}, ${rule}`,
    `Valid ballots: ${result.ballots}${result.quota !== undefined ? `, quota: ${fixed(result.quota)}` : ""}`,
    "",
  ];
  const labels = [...file.candidates.map((c) => `${c.number} ${c.name}`), "Non-transferable"];
  const width = Math.min(40, Math.max(...labels.map((l) => l.length)));
  const cells = result.rounds.map((round) => [
    ...file.candidates.map((c) => (c.withdrawn ? "withdrawn" : fixed(round.votes[String(c.number)] ?? 0))),
    fixed(round.nonTransferable),
  ]);
  const colWidth = Math.max(9, ...cells.flat().map((c) => c.length));
  const row = (label: string, values: string[]) => `${label.slice(0, width).padEnd(width)}  ${values.map((v) => v.padStart(colWidth)).join("  ")}`.trimEnd();
  out.push(row("Stage", result.rounds.map((_, i) => String(i + 1))));
  labels.forEach((label, r) => out.push(row(label, cells.map((column) => column[r]))));
  out.push("");
  result.rounds.forEach((round, i) => {
    const what = round.stage.kind === "first" ? "first preferences" : `${round.stage.kind === "surplus" ? "surplus of" : "exclusion of"} ${name(round.stage.from)}`;
    const decided = [
      ...(round.elected.length ? [`elected ${round.elected.map(name).join(", ")}`] : []),
      ...(round.excluded.length ? [`excluded ${round.excluded.map(name).join(", ")}`] : []),
    ];
    const lot = round.decisions.some((d) => d.tieBreak === "lot") || (round.stage.kind !== "first" && round.stage.tieBreak === "lot");
    out.push(`Stage ${i + 1}: ${what}${decided.length ? `; ${decided.join("; ")}` : ""}${lot ? " (a tie decided by lot)" : ""}`);
  });
  out.push("", `Elected: ${result.elected.map(name).join(", ") || "none"}`);
  if (result.rounds.some((r) => r.decisions.some((d) => d.tieBreak === "lot") || (r.stage.kind !== "first" && r.stage.tieBreak === "lot"))) {
    out.push("A tie was decided by lot, drawn here from the file's title; the published count drew it from the position's own seed, so the drawn candidate may differ.");
  }
  return out.join("\n") + "\n";
}
