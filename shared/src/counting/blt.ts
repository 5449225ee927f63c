/**
 * BLT, the ballot file OpenSTV, OpaVote and droop read, so a closed ranked position can be
 * recounted with another tool:
 *
 *   <candidates> <seats>
 *   <weight> <1st> <2nd> ... 0      one line per distinct ranking, candidates numbered from 1
 *   0
 *   "<candidate 1>" ... "<candidate n>"
 *   "<title>"
 *
 * The format has no escape for a double quote inside a name, so one is written as '.
 * Identical rankings share a line (with their count as weight), listed most common first,
 * then by the rankings themselves, so the file says nothing about the order ballots came in.
 */
export interface BltElection {
  title: string;
  seats: number;
  candidates: readonly { id: string; name: string }[];
  /** each ballot: candidate ids, first preference first */
  ballots: readonly (readonly string[])[];
}

const quoted = (text: string) => `"${text.replace(/["\r\n]/g, (c) => (c === '"' ? "'" : " "))}"`;

export function writeBlt(election: BltElection): string {
  const number = new Map(election.candidates.map((c, i) => [c.id, i + 1]));
  const weights = new Map<string, number>();
  for (const ballot of election.ballots) {
    const ranks = ballot.map((id) => number.get(id)).filter((n): n is number => n !== undefined);
    if (ranks.length === 0) continue;
    const key = ranks.join(" ");
    weights.set(key, (weights.get(key) ?? 0) + 1);
  }
  const lines = [...weights]
    .sort(([a, wa], [b, wb]) => wb - wa || (a < b ? -1 : a > b ? 1 : 0))
    .map(([ranks, weight]) => `${weight} ${ranks} 0`);
  return [
    `${election.candidates.length} ${election.seats}`,
    ...lines,
    "0",
    ...election.candidates.map((c) => quoted(c.name)),
    quoted(election.title),
    "",
  ].join("\n");
}

/** Reads a BLT file (withdrawn candidates are left out). Candidate ids are their names. */
export function parseBlt(text: string): BltElection {
  const tokens = text.match(/"[^"]*"|[^\s"]+/g) ?? [];
  let i = 0;
  const next = () => {
    if (i >= tokens.length) throw new Error("BLT: unexpected end of file");
    return tokens[i++];
  };
  const candidateCount = Number(next());
  const seats = Number(next());
  const withdrawn = new Set<number>();
  const ballots: number[][] = [];
  let token = next();
  while (token.startsWith("-")) {
    withdrawn.add(-Number(token));
    token = next();
  }
  while (token !== "0") {
    const weight = Number(token);
    const ranks: number[] = [];
    for (let t = next(); t !== "0"; t = next()) if (!withdrawn.has(Number(t))) ranks.push(Number(t));
    for (let w = 0; w < weight; w++) ballots.push(ranks);
    token = next();
  }
  const names = Array.from({ length: candidateCount }, () => next().slice(1, -1));
  const title = i < tokens.length ? next().slice(1, -1) : "";
  return {
    title,
    seats,
    candidates: names.filter((_, n) => !withdrawn.has(n + 1)).map((name) => ({ id: name, name })),
    ballots: ballots.map((ranks) => ranks.map((r) => names[r - 1])),
  };
}
