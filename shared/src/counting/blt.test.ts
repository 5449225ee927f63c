/**
 * The BLT reader against files as other tools write them, and against files that are not
 * BLT. "The same election written another way" is checked by counting both: equal counts.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BltError, readBlt, writeBlt } from "./blt.ts";
import { recountBlt, recountJson, stageTable } from "./recount.ts";

const fixture = (name: string) => readFileSync(join(import.meta.dirname, "fixtures", `${name}.blt`), "utf8");
const countOf = (text: string) => recountJson(recountBlt(readBlt(text)));

/** Govan 2007 (11 candidates, 4 seats) as mggg/scot-elex writes its files: unquoted names with parties, an unquoted title. */
function unquoted(text: string): string {
  return text
    .split("\n")
    .map((line) => (/^".*"$/.test(line) ? line.slice(1, -1) : line))
    .map((line, i, all) => (i < all.length - 2 && /^[A-Z]/.test(line) ? `${line} (Ind)` : line))
    .join("\n");
}

function refused(text: string): BltError {
  try {
    readBlt(text);
  } catch (error) {
    if (error instanceof BltError) return error;
    throw error;
  }
  throw new Error("the file was read");
}

describe("readBlt reads what other tools write", () => {
  it("reads unquoted names one per line (with parentheses) and an unquoted title, counting as the quoted file does", () => {
    const original = fixture("Govan-2007");
    const other = unquoted(original);
    expect(other).not.toContain('"');
    const file = readBlt(other);
    expect(file.candidates[0].name).toMatch(/^[A-Z].* \(Ind\)$/);
    expect(file.title).toBe(readBlt(original).title);
    expect(countOf(other)).toEqual(countOf(original));
  });

  it("skips # comments and blank lines anywhere, reads Windows line ends, a BOM and several quoted names on one line", () => {
    const text = ["\uFEFF# written by hand", "3 1", "", "# ballots", "4 1 2 0", "3 2 0", "", "2 3 2 0", "0", '"Ada" "Bo"', "# last", '"Cy"', '"Chair"', ""].join("\r\n");
    const file = readBlt(text);
    expect(file.candidates.map((c) => c.name)).toEqual(["Ada", "Bo", "Cy"]);
    expect(file.title).toBe("Chair");
    expect(file.ballots).toEqual([
      { weight: 4, ranking: [1, 2] },
      { weight: 3, ranking: [2] },
      { weight: 2, ranking: [3, 2] },
    ]);
    // 9 ballots, no majority at first; Cy goes out and their papers go to Bo (5 of 9).
    const count = countOf(text);
    expect(count).toMatchObject({ seats: 1, ballots: 9, quota: null, elected: [2] });
    expect(count.stages.at(-1)!.votes).toEqual(["4.00000", "5.00000", "0.00000"]);
  });

  it("leaves withdrawn candidates out: the count equals the file without them", () => {
    const withdrawn = ["4 2", "-2", "5 2 1 0", "3 1 0", "4 3 2 4 0", "2 4 0", "0", '"Ada"', '"Bo"', '"Cy"', '"Di"', '"Seats"'].join("\n");
    const without = ["3 2", "5 1 0", "3 1 0", "4 2 3 0", "2 3 0", "0", '"Ada"', '"Cy"', '"Di"', '"Seats"'].join("\n");
    const file = readBlt(withdrawn);
    expect(file.candidates.map((c) => c.withdrawn)).toEqual([false, true, false, false]);
    const a = countOf(withdrawn);
    const b = countOf(without);
    const keep = (votes: string[]) => [votes[0], votes[2], votes[3]];
    expect(a.stages.map((s) => keep(s.votes))).toEqual(b.stages.map((s) => s.votes));
    expect(a.stages.every((s) => s.votes[1] === "0.00000")).toBe(true);
    const renumber = (n: number) => [1, 3, 4][n - 1];
    expect(a.elected).toEqual(b.elected.map(renumber));
  });

  it("counts a weight as that many ballots, one line or many", () => {
    const lines = fixture("Govan-2007").split("\n");
    // Every weight-w line written as w lines of weight 1, with OpenSTV ballot ids.
    const expanded = [lines[0]];
    let id = 0;
    for (const line of lines.slice(1)) {
      const m = /^(\d+) (.* 0)$/.exec(line);
      if (!m) expanded.push(line);
      else for (let w = 0; w < Number(m[1]); w++) expanded.push(`(b${++id}) 1 ${m[2]}`);
    }
    expect(expanded.length).toBeGreaterThan(lines.length * 2);
    expect(countOf(expanded.join("\n"))).toEqual(countOf(lines.join("\n")));
  });

  it("reads back what writeBlt writes, the published examples included", () => {
    for (const name of ["SC", "M135", "Hillhead-2007"]) {
      const file = readBlt(fixture(name));
      const again = writeBlt({
        title: file.title,
        seats: file.seats,
        candidates: file.candidates.map((c) => ({ id: String(c.number), name: c.name })),
        ballots: file.ballots.flatMap((b) => Array.from({ length: b.weight }, () => b.ranking.map(String))),
      });
      expect(countOf(again)).toEqual(countOf(fixture(name)));
    }
  });

  it("prints the stage table: every candidate, every stage, who was elected", () => {
    const table = stageTable(recountBlt(readBlt(fixture("42"))));
    expect(table).toContain("Valid ballots: 6, quota: 3.00000");
    expect(table).toMatch(/^2 Pollux\s+0\.00000\s+1\.00000\s+0\.00000$/m);
    expect(table).toMatch(/^Stage 3: exclusion of 2 Pollux; elected 3 Helen; excluded 2 Pollux$/m);
    expect(table).toMatch(/^Elected: 1 Castor, 3 Helen$/m);
  });
});

describe("readBlt refuses what it cannot count, naming the line", () => {
  const cases: [string, string, number, RegExp][] = [
    ["an empty file", "", 1, /empty/],
    ["a header that is not two numbers", "three 2\n0\n", 1, /number of candidates/],
    ["more seats than candidates", "2 3\n0\n\"A\"\n\"B\"\n", 1, /seats must be 1 to/],
    ["a truncated file (no end of ballots)", "3 1\n4 1 2 0\n2 3", 3, /must end with 0/],
    ["a file that ends in the ballots", "3 1\n4 1 2 0\n", 3, /ends before the line "0"/],
    ["a file that ends before the names", "3 1\n4 1 2 0\n0\n\"A\"\n\"B\"\n", 6, /ends before the name of candidate 3/],
    ["a preference beyond the candidates", "3 1\n4 1 2 0\n2 3 7 0\n0\n\"A\"\n\"B\"\n\"C\"\n", 3, /preference 7 is not a candidate/],
    ["a weight that is not a number", "3 1\n4 1 2 0\nmany 3 0\n0\n\"A\"\n\"B\"\n\"C\"\n", 3, /expected a ballot/],
    ["a fractional weight", "3 1\n1.5 1 2 0\n0\n\"A\"\n\"B\"\n\"C\"\n", 2, /not a whole number/],
    ["a candidate ranked twice", "3 1\n4 1 2 1 0\n0\n\"A\"\n\"B\"\n\"C\"\n", 2, /ranked twice/],
    ["equal preferences", "3 1\n4 1=2 3 0\n0\n\"A\"\n\"B\"\n\"C\"\n", 2, /equal preferences/],
    ["a withdrawn number beyond the candidates", "3 1\n-9\n4 1 0\n0\n\"A\"\n\"B\"\n\"C\"\n", 2, /not a candidate/],
    ["an unclosed quote", "2 1\n1 1 0\n0\n\"A\n\"B\"\n", 4, /expected quoted names/],
    ["an absurd number of candidates", "99999999 1\n0\n", 1, /must be 1 to/],
    ["an absurd weight", "2 1\n99999999999 1 0\n0\n\"A\"\n\"B\"\n", 2, /more than/],
    ["binary junk", "\u0000\u0001PK\u0003\u0004", 1, /expected the number of candidates/],
  ];
  for (const [what, text, line, reason] of cases) {
    it(what, () => {
      const error = refused(text);
      expect(error.line).toBe(line);
      expect(error.message).toMatch(reason);
      expect(error.message).not.toContain("\n");
    });
  }
});
