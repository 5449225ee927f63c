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
 *
 * `readBlt` reads what other tools write too (the recount command, docs/counting.md): names
 * quoted or not (an unquoted name is a whole line, so "Ann Smith (Lab)" is one name), several
 * quoted names on a line, `#` comment lines, blank lines, withdrawn candidates as negative
 * numbers on the line after the first, ballot weights, an OpenSTV ballot id in parentheses
 * before the weight, `-` for a skipped preference, notes after the title. Anything else is refused with the line it is
 * on (BltError), never guessed at.
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

/** A file that is not BLT, or not one this reader can count: the message names the line. */
export class BltError extends Error {
  constructor(
    readonly line: number,
    readonly reason: string,
  ) {
    super(`line ${line}: ${reason}`);
    this.name = "BltError";
  }
}

export interface BltCandidate {
  /** 1-based position in the file: what the ballots and a count's output name it by */
  number: number;
  name: string;
  withdrawn: boolean;
}

export interface BltFile {
  title: string;
  seats: number;
  candidates: BltCandidate[];
  /** each distinct line: its weight (papers) and preferences (candidate numbers, withdrawn ones left out) */
  ballots: { weight: number; ranking: number[] }[];
}

/** Bounds that keep a hostile file from exhausting memory or the count's exact arithmetic. */
export const BLT_LIMITS = { candidates: 10_000, papers: 1_000_000_000 } as const;

const WHOLE = /^\d+$/;

/** Reads a BLT file as OpenSTV, OpaVote, droop and mggg/scot-elex write it (see above). */
export function readBlt(text: string): BltFile {
  const lines = text.replace(/^\uFEFF/, "").split(/\r\n|\n|\r/);
  let at = 0;
  /** The next line that is neither blank nor a comment, trimmed, with its 1-based number. */
  const next = (): { n: number; text: string } | null => {
    while (at < lines.length) {
      const text = lines[at++].trim();
      if (text !== "" && !text.startsWith("#")) return { n: at, text };
    }
    return null;
  };
  const ended = (what: string) => new BltError(lines.length, `the file ends before ${what}`);

  const header = next();
  if (!header) throw new BltError(1, "the file is empty (expected the number of candidates and seats)");
  const sizes = header.text.split(/\s+/);
  if (sizes.length !== 2 || !sizes.every((t) => WHOLE.test(t))) {
    throw new BltError(header.n, `expected the number of candidates and the number of seats, found "${clip(header.text)}"`);
  }
  const [count, seats] = sizes.map(Number);
  if (count < 1 || count > BLT_LIMITS.candidates) throw new BltError(header.n, `the number of candidates must be 1 to ${BLT_LIMITS.candidates}, found ${count}`);
  if (seats < 1 || seats > count) throw new BltError(header.n, `the number of seats must be 1 to the number of candidates (${count}), found ${seats}`);

  const candidate = (token: string, n: number) => {
    if (!WHOLE.test(token)) throw new BltError(n, `"${clip(token)}" is not a candidate number`);
    const c = Number(token);
    if (c < 1 || c > count) throw new BltError(n, `preference ${c} is not a candidate (the file has ${count})`);
    return c;
  };

  const withdrawn = new Set<number>();
  let line = next();
  if (line && /^-\d/.test(line.text)) {
    for (const token of line.text.split(/\s+/)) {
      if (!/^-\d+$/.test(token)) throw new BltError(line.n, `expected withdrawn candidates as negative numbers, found "${clip(token)}"`);
      withdrawn.add(candidate(token.slice(1), line.n));
    }
    line = next();
  }

  const ballots: BltFile["ballots"] = [];
  let papers = 0;
  for (;;) {
    if (!line) throw ended('the line "0" that ends the ballots');
    let tokens = line.text.split(/\s+/);
    if (tokens[0].startsWith("(")) {
      // An OpenSTV ballot id, "(id) weight prefs 0": it names the line, it does not count.
      const close = line.text.indexOf(")");
      if (close < 0) throw new BltError(line.n, "a ballot id in parentheses is not closed");
      tokens = line.text.slice(close + 1).trim().split(/\s+/);
    }
    if (tokens.length === 1 && tokens[0] === "0") break;
    const [weightText, ...rest] = tokens;
    if (!WHOLE.test(weightText)) {
      throw new BltError(line.n, /^\d*\.\d+$/.test(weightText) ? `the weight ${weightText} is not a whole number of ballots` : `expected a ballot (a weight, preferences, then 0), found "${clip(line.text)}"`);
    }
    if (rest.at(-1) !== "0") throw new BltError(line.n, "a ballot line must end with 0");
    const weight = Number(weightText);
    papers += weight;
    if (papers > BLT_LIMITS.papers) throw new BltError(line.n, `more than ${BLT_LIMITS.papers} ballots in all`);
    const ranking: number[] = [];
    const seen = new Set<number>();
    for (const token of rest.slice(0, -1)) {
      if (token === "-") continue; // a skipped preference: the next one follows on
      if (token.includes("=")) throw new BltError(line.n, `equal preferences ("${clip(token)}") cannot be counted by these rules`);
      const c = candidate(token, line.n);
      if (seen.has(c)) throw new BltError(line.n, `candidate ${c} is ranked twice on one ballot`);
      seen.add(c);
      if (!withdrawn.has(c)) ranking.push(c);
    }
    if (weight > 0 && ranking.length > 0) ballots.push({ weight, ranking });
    line = next();
  }

  const names: string[] = [];
  while (names.length < count) {
    line = next();
    if (!line) throw ended(`the name of candidate ${names.length + 1} (the file has ${count} candidates)`);
    if (line.text.startsWith('"')) {
      const quoted = line.text.match(/"[^"]*"|\S+/g) ?? [];
      for (const token of quoted) {
        if (!token.startsWith('"') || token.length < 2 || !token.endsWith('"')) throw new BltError(line.n, `expected quoted names, found ${clip(token)}`);
        if (names.length === count) throw new BltError(line.n, `more names than the ${count} candidates`);
        names.push(token.slice(1, -1));
      }
    } else names.push(line.text);
  }
  line = next();
  const title = line ? unquote(line.text) : "";
  // Lines after the title are notes other tools ignore too (M135 carries its author's figures).
  return {
    title,
    seats,
    candidates: names.map((name, i) => ({ number: i + 1, name, withdrawn: withdrawn.has(i + 1) })),
    ballots,
  };
}

const unquote = (text: string) => (text.length >= 2 && text.startsWith('"') && text.endsWith('"') ? text.slice(1, -1) : text);
const clip = (text: string) => (text.length > 40 ? `${text.slice(0, 40)}…` : text);

/**
 * A BLT file as an election to count: the candidates still standing, with their BLT number as
 * id (names need not be unique), and the ballots with their weights.
 */
export function bltCount(file: BltFile): { candidates: string[]; seats: number; ballots: string[][]; weights: number[] } {
  return {
    candidates: file.candidates.filter((c) => !c.withdrawn).map((c) => String(c.number)),
    seats: file.seats,
    ballots: file.ballots.map((b) => b.ranking.map(String)),
    weights: file.ballots.map((b) => b.weight),
  };
}

/** Reads a BLT file into the writer's shape, one ballot per paper; withdrawn candidates are left out. Candidate ids are their BLT numbers. */
export function parseBlt(text: string): BltElection {
  const file = readBlt(text);
  return {
    title: file.title,
    seats: file.seats,
    candidates: file.candidates.filter((c) => !c.withdrawn).map((c) => ({ id: String(c.number), name: c.name })),
    ballots: file.ballots.flatMap((b) => Array.from({ length: b.weight }, () => b.ranking.map(String))),
  };
}
