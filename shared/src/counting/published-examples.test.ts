/**
 * The Scottish STV count against published counts: six Glasgow City Council wards of the 2007
 * Scottish local government elections (the first held under these rules; the ballots were
 * published by the council), Brian Wichmann's ERBS validation election M135 (1999), a real
 * 13-candidate committee election (SC) and small hand-checkable cases. The expected figures
 * are droop's reference dumps for its 'scotland' rule (fixtures/*.droop.tsv, from
 * github.com/jklundell/droop test/ref/dump); droop's Scottish rule was itself checked against
 * the official Glasgow declarations. Every stage's figure for every candidate must match to
 * the last of the five decimal places, as must the non-transferable votes.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { bltCount, readBlt } from "./blt.ts";
import { countStv } from "./stv.ts";

const dir = join(import.meta.dirname, "fixtures");

interface DroopStage {
  nonTransferable: number;
  votes: Record<string, number>;
  elected: string[];
}

/**
 * Stage ends in a droop dump: the 'begin' row, then each round's 'transfer' row; plus who ended
 * elected. droop also spends a round 'transferring' the zero surplus of a candidate elected with
 * exactly the quota; rule 48(1) transfers only votes that exceed the quota, so those rounds, which
 * change nothing, are not stages here.
 */
function readDroopDump(text: string): { quota: number; stages: DroopStage[]; elected: string[] } {
  const rows = text.trim().split("\n").slice(1).map((line) => line.split("\t"));
  const stageOf = (row: string[]): DroopStage => {
    const votes: Record<string, number> = {};
    const elected: string[] = [];
    for (let c = 4; c + 2 < row.length + 1; c += 3) {
      votes[row[c]] = Number(row[c + 2]);
      if (row[c + 1] === "E") elected.push(row[c]);
    }
    return { nonTransferable: Number(row[3]), votes, elected };
  };
  const stages: DroopStage[] = [];
  rows.forEach((row, i) => {
    if (row[1] !== "begin" && row[1] !== "transfer") return;
    const stage = stageOf(row);
    const emptySurplus = rows[i - 1]?.[1] === "unpend" && JSON.stringify(stage.votes) === JSON.stringify(stages.at(-1)?.votes);
    if (!emptySurplus) stages.push(stage);
  });
  const end = stageOf(rows.find((r) => r[1] === "end")!);
  return { quota: Number(rows.find((r) => r[1] === "begin")![2]), stages, elected: end.elected };
}

const examples = [
  "Govan-2007",
  "Anderston-City-2007",
  "East-Centre-2007",
  "Calton-2007",
  "Springburn-2007",
  "Hillhead-2007",
  "M135",
  "SC",
  "42",
  "513",
  "weak-defeat",
  "weak-surplus",
];

describe("Scottish STV reproduces published counts stage by stage", () => {
  for (const name of examples) {
    it(name, () => {
      const file = readBlt(readFileSync(join(dir, `${name}.blt`), "utf8"));
      const expected = readDroopDump(readFileSync(join(dir, `${name}.droop.tsv`), "utf8"));
      const result = countStv({ ...bltCount(file), lotSeed: "published-example" });
      // The count names candidates by BLT number; droop's dump by name.
      const nameOf = (id: string) => file.candidates[Number(id) - 1].name;
      const byName = (votes: Record<string, number>) => Object.fromEntries(Object.entries(votes).map(([id, v]) => [nameOf(id), v]));
      expect(result.quota).toBe(expected.quota);
      expect(result.rounds.map((r) => byName(r.votes))).toEqual(expected.stages.map((s) => s.votes));
      expect(result.rounds.map((r) => r.nonTransferable)).toEqual(expected.stages.map((s) => s.nonTransferable));
      expect(result.elected.map(nameOf).sort()).toEqual([...expected.elected].sort());
    });
  }
});
