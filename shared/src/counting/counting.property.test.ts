/** Properties every count must keep, over random elections (fast-check). */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { countPlurality } from "./plurality.ts";
import { countInstantRunoff, countStv } from "./stv.ts";
import type { CountResult } from "./types.ts";

const UNIT = 100_000;
const units = (x: number) => Math.round(x * UNIT);

const election = fc
  .integer({ min: 1, max: 7 })
  .chain((n) => {
    const candidates = Array.from({ length: n }, (_, i) => `c${i}`);
    const ranking = fc.shuffledSubarray(candidates, { minLength: 1 });
    return fc.record({
      candidates: fc.constant(candidates),
      seats: fc.integer({ min: 1, max: n + 1 }),
      ballots: fc.array(ranking, { maxLength: 60 }),
      lotSeed: fc.string({ maxLength: 8 }),
    });
  });

const firstPreferences = (candidates: string[], ballots: string[][]) =>
  Object.fromEntries(candidates.map((c) => [c, ballots.filter((b) => b[0] === c).length]));

function conserved(result: CountResult) {
  for (const round of result.rounds) {
    const held = Object.values(round.votes).reduce((sum, v) => sum + units(v), 0);
    expect(held + units(round.nonTransferable) + units(round.lostToRounding)).toBe(result.ballots * UNIT);
  }
}

describe.each([
  ["Scottish STV", (e: { candidates: string[]; seats: number; ballots: string[][]; lotSeed: string }) => countStv(e)],
  ["instant-runoff", (e: { candidates: string[]; seats: number; ballots: string[][]; lotSeed: string }) => countInstantRunoff(e)],
])("%s", (_, count) => {
  it("counts every ballot once: the first stage is the first preferences", () => {
    fc.assert(
      fc.property(election, (e) => {
        const result = count(e);
        expect(result.ballots).toBe(e.ballots.length);
        expect(result.rounds[0].votes).toEqual(firstPreferences(e.candidates, e.ballots));
      }),
    );
  });

  it("conserves the total at every stage: held + non-transferable + rounding = ballots", () => {
    fc.assert(fc.property(election, (e) => conserved(count(e))));
  });

  it("gives the same result for the same ballots in any order", () => {
    fc.assert(
      fc.property(election, fc.integer(), (e, salt) => {
        const shuffled = [...e.ballots]
          .map((b, i) => ({ b, k: Math.imul(i + 1, salt | 1) ^ (salt >>> 3) }))
          .sort((x, y) => x.k - y.k)
          .map(({ b }) => b);
        expect(count({ ...e, ballots: shuffled })).toEqual(count(e));
      }),
    );
  });

  it("fills every seat it can, with distinct candidates, and never a candidate twice", () => {
    fc.assert(
      fc.property(election, (e) => {
        const result = count(e);
        const seats = result.rule === "instant-runoff" ? 1 : e.seats;
        expect(new Set(result.elected).size).toBe(result.elected.length);
        expect(result.elected.length).toBe(e.ballots.length === 0 ? 0 : Math.min(seats, e.candidates.length));
        const excluded = result.rounds.flatMap((r) => r.excluded);
        expect(excluded.filter((c) => result.elected.includes(c))).toEqual([]);
      }),
    );
  });
});

describe("plurality", () => {
  const marks = fc.integer({ min: 1, max: 7 }).chain((n) => {
    const candidates = Array.from({ length: n }, (_, i) => `c${i}`);
    return fc.record({
      candidates: fc.constant(candidates),
      seats: fc.integer({ min: 1, max: n }),
      ballots: fc.array(fc.shuffledSubarray(candidates, { minLength: 1 }), { maxLength: 60 }),
    });
  });

  it("counts each mark once and never elects more than the seats; ties are never elected", () => {
    fc.assert(
      fc.property(marks, (e) => {
        const ballots = e.ballots.map((b) => b.slice(0, e.seats));
        const result = countPlurality({ ...e, ballots });
        const total = Object.values(result.rounds[0].votes).reduce((a, b) => a + b, 0);
        expect(total).toBe(ballots.reduce((sum, b) => sum + b.length, 0));
        expect(result.elected.length + (result.tied.length > 0 ? 1 : 0)).toBeLessThanOrEqual(e.seats);
        expect(result.elected.filter((c) => result.tied.includes(c))).toEqual([]);
        expect(countPlurality({ ...e, ballots: [...ballots].reverse() })).toEqual(result);
      }),
    );
  });
});
