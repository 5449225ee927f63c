/**
 * The published results as CSV: one row per candidate, plus 'No' on an unopposed
 * position and 'Abstain' where abstentions were cast. Pure, so the API's export and anything
 * that checks its digest build the same bytes from the same results. Percentages and the
 * elected/tie decision come from the one rule in ./results.ts.
 */
import { toCsv } from "./csv.ts";
import { isYesNo, positionOutcome, sharePercent, sortBreakdown } from "./results.ts";
import type { PositionResult, Results } from "./types.ts";

export const RESULTS_CSV_HEADER = ["position", "choice", "candidateId", "votes", "percentage", "outcome"];

/** A verifiable position's word on its counts, on the results screens, the sheet and the CSV (docs/verifiable.md). */
export const VERIFIED_MARK = "Verified with Belenios";
export const ENCRYPTED_MARK = "Encrypted: counted when the trustees decrypt";

/**
 * The column an export gets only when the election has a verifiable position, so that an
 * installation without one keeps the six columns above byte for byte: each row of a verifiable
 * position carries the mark, with the final ballot box fingerprint a reader checks against the
 * Ballot Box page once the trustees have decrypted.
 */
const VERIFICATION_COLUMN = "verification";

function verification(r: PositionResult): string {
  if (!r.belenios) return "";
  return r.belenios.verified ? `${VERIFIED_MARK}; final fingerprint ${r.belenios.fingerprint ?? ""}` : ENCRYPTED_MARK;
}

/**
 * Until the declaration nobody is elected and nothing has passed: the outcome column says who
 * is ahead ('leading', 'yes ahead', 'passing so far'). From the declaration, the words below.
 */
const PROVISIONAL_VERDICTS: Record<string, string> = {
  elected: "leading",
  "not elected": "no ahead",
  passed: "passing so far",
  "not passed": "not passing so far",
};

/** The line a provisional export ends with. */
export const PROVISIONAL_CSV_NOTE = "Provisional: these figures are not final until the results are declared";

/** What a position's result says in words: the elected candidate's name, 'Tie', or nothing yet ('Leading: …' while provisional). */
export function outcomeLabel(r: PositionResult, provisional = false): string {
  const decided = methodOutcomeLabel(r, provisional);
  if (decided !== null) return decided;
  const outcome = positionOutcome(r);
  switch (outcome.kind) {
    case "leader":
      return outcome.leader.name;
    case "elected":
      return outcome.candidate.name;
    case "tie":
      return "Tie";
    case "not-elected":
      return provisional ? "No ahead" : "Not elected";
    default:
      return "No votes";
  }
}

/** Several seats, ranked, referendum: the elected (and tied) names, or the referendum's verdict; null for a single choice. */
function methodOutcomeLabel(r: PositionResult, provisional: boolean): string | null {
  if (!r.method || r.method === "single") return null;
  if (r.method === "referendum") return r.referendum?.passed ? (provisional ? "Passing so far" : "Passed") : provisional ? "Not passing so far" : "Not passed";
  if (r.method === "ranked" && r.count !== "full") return "Counted when voting closes";
  const name = (id: string) => r.breakdown.find((b) => b.candidateId === id)?.name ?? id;
  const elected = (r.elected ?? []).map(name).join("; ");
  const tied = (r.tied ?? []).map(name).join("; ");
  if (!elected && !tied) return "No votes";
  return [elected && `${provisional ? "Leading" : "Elected"}: ${elected}`, tied && `Tie: ${tied}`].filter(Boolean).join(" · ");
}

function methodCsvRows(r: PositionResult): (string | number)[][] {
  if (r.method === "referendum") {
    const o = r.referendum ?? { yes: 0, no: 0, abstentions: 0, passed: false };
    const base = o.yes + o.no;
    const pct = (n: number) => (base > 0 ? ((n / base) * 100).toFixed(2) : "0.00");
    return [
      [r.positionTitle, "Yes", "", o.yes, pct(o.yes), o.passed ? "passed" : "not passed"],
      [r.positionTitle, "No", "", o.no, pct(o.no), ""],
    ];
  }
  // Several seats: a share of the ballots (each marks up to `seats`); ranked: of the first preferences.
  const ballots = r.method === "multi" ? r.totalVotes - (r.abstentions ?? 0) : sortBreakdown(r.breakdown).reduce((n, b) => n + b.votes, 0);
  return sortBreakdown(r.breakdown).map((c) => {
    const verdict = r.elected?.includes(c.candidateId) ? "elected" : r.tied?.includes(c.candidateId) ? "tie" : "";
    return [r.positionTitle, c.name, c.candidateId, c.votes, ballots > 0 ? ((c.votes / ballots) * 100).toFixed(2) : "0.00", verdict];
  });
}

export function resultsCsvRows(r: PositionResult, provisional = false): (string | number)[][] {
  const rows = decidedCsvRows(r);
  return provisional ? rows.map((row) => [...row.slice(0, 5), PROVISIONAL_VERDICTS[String(row[5])] ?? row[5]]) : rows;
}

function decidedCsvRows(r: PositionResult): (string | number)[][] {
  if (r.method && r.method !== "single") {
    const rows = methodCsvRows(r);
    if ((r.abstentions ?? 0) > 0) rows.push([r.positionTitle, "Abstain", "", r.abstentions ?? 0, "", ""]);
    return rows;
  }
  const outcome = positionOutcome(r);
  const percent = (votes: number) => sharePercent(votes, r).toFixed(2);
  const rows: (string | number)[][] = [];
  if (isYesNo(r)) {
    const c = r.breakdown[0];
    const verdict = outcome.kind === "elected" ? "elected" : outcome.kind === "not-elected" ? "not elected" : "";
    rows.push([r.positionTitle, `Yes: ${c.name}`, c.candidateId, c.votes, percent(c.votes), verdict]);
    rows.push([r.positionTitle, "No", "", r.noVotes ?? 0, percent(r.noVotes ?? 0), ""]);
  } else {
    for (const c of sortBreakdown(r.breakdown)) {
      const verdict =
        outcome.kind === "leader" && outcome.leader.candidateId === c.candidateId
          ? "elected"
          : outcome.kind === "tie" && outcome.tied.some((t) => t.candidateId === c.candidateId)
            ? "tie"
            : "";
      rows.push([r.positionTitle, c.name, c.candidateId, c.votes, percent(c.votes), verdict]);
    }
  }
  // Abstentions are reported apart and never take a share (docs/decisions/0006).
  if ((r.abstentions ?? 0) > 0) rows.push([r.positionTitle, "Abstain", "", r.abstentions ?? 0, "", ""]);
  return rows;
}

/**
 * The whole export. Deterministic: the same results always give the same bytes (no timestamp).
 * Provisional results (before the declaration) use the provisional words and end with a line
 * saying so; a declared election's export is unchanged by that. A verifiable position's rows say
 * whether the trustees' decryption verified them (the 'verification' column, only when there is one).
 */
export function resultsCsv(results: Pick<Results, "results" | "provisional">): string {
  const provisional = results.provisional === true;
  const verifiable = results.results.some((r) => r.belenios);
  const rows = results.results.flatMap((r) => {
    const own = resultsCsvRows(r, provisional);
    return verifiable ? own.map((row) => [...row, verification(r)]) : own;
  });
  const header = verifiable ? [...RESULTS_CSV_HEADER, VERIFICATION_COLUMN] : RESULTS_CSV_HEADER;
  const note = [PROVISIONAL_CSV_NOTE, ...Array<string>(header.length - 1).fill("")];
  return toCsv(header, provisional ? [...rows, note] : rows);
}
