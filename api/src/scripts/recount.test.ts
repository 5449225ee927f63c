/**
 * `npm run recount` as an operator runs it: a real process through scripts/tool.mjs (the
 * server bundle), a path relative to where the command was typed, the stage table or JSON,
 * and for a file it cannot read one line on stderr and exit 1.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { recount } from "./recount.ts";

const root = join(import.meta.dirname, "../../..");
const fixtures = join(root, "shared/src/counting/fixtures");
const dir = mkdtempSync(join(tmpdir(), "evoting-recount-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const run = (args: string[], cwd: string) =>
  spawnSync(process.execPath, [join(root, "scripts/tool.mjs"), "recount", ...args], { cwd: root, env: { ...process.env, INIT_CWD: cwd }, encoding: "utf8" });

describe("npm run recount", () => {
  it("counts a published example from a path relative to where it was typed: the stage table, or JSON as docs/counting.md gives it", () => {
    const table = run(["Govan-2007.blt"], fixtures);
    expect(table.stderr).toBe("");
    expect(table.status).toBe(0);
    expect(table.stdout).toMatch(/^11 candidates, 4 seats, Scottish STV/m);
    expect(table.stdout).toMatch(/^Elected: /m);

    const json = run(["--json", "Govan-2007.blt"], fixtures);
    expect(json.status).toBe(0);
    const report = JSON.parse(json.stdout);
    expect(Object.keys(report)).toEqual(["seats", "ballots", "quota", "elected", "stages"]);
    expect(report).toMatchObject({ seats: 4 });
    expect(report.elected).toHaveLength(4);
    for (const stage of report.stages) {
      expect(stage.votes).toHaveLength(11);
      for (const v of [...stage.votes, stage.nonTransferable]) expect(v).toMatch(/^\d+\.\d{5}$/);
    }
    // Every stage's total, with the non-transferable votes, is the valid ballots (less what rounding lost).
    const first = report.stages[0];
    expect(first.votes.reduce((s: number, v: string) => s + Number(v), 0)).toBe(report.ballots);
  });

  it("counts one seat by instant-runoff", () => {
    const file = join(dir, "irv.blt");
    writeFileSync(file, ["4 1", "3 1 0", "2 2 4 0", "2 3 2 0", "1 4 2 0", "0", "Ada (Blue)", "Bo (Red)", "Cy", "Di", "Chair", ""].join("\n"));
    const { status, stdout } = run([file, "--json"], dir);
    expect(status).toBe(0);
    const report = JSON.parse(stdout);
    expect(report.quota).toBeNull();
    // Di goes out (1), her paper to Bo (3); Cy goes out (2), to Bo (5 of 8): a majority.
    expect(report.elected).toEqual([2]);
  });

  it("refuses a malformed file with one line naming the line, exit 1, no stack trace", () => {
    const file = join(dir, "bad.blt");
    writeFileSync(file, "3 1\n4 1 2 0\n2 3 7 0\n0\n\"A\"\n\"B\"\n\"C\"\n");
    const bad = run(["bad.blt"], dir);
    expect(bad.status).toBe(1);
    expect(bad.stdout).toBe("");
    expect(bad.stderr).toBe("recount: bad.blt: line 3: preference 7 is not a candidate (the file has 3)\n");

    const missing = run(["nowhere.blt"], dir);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toBe("recount: nowhere.blt: no such file\n");
  });

  it("says how to call it when the arguments are wrong", () => {
    expect(recount([], dir)).toMatchObject({ code: 2, stderr: "usage: npm run recount -- FILE.blt [--json]\n" });
    expect(recount(["a.blt", "b.blt"], dir).code).toBe(2);
  });
});
