import { describe, expect, it } from "vitest";
import { parseBlt, writeBlt } from "./blt.ts";
import { drawLot } from "./lot.ts";
import { countPlurality } from "./plurality.ts";
import { referendumOutcome } from "./referendum.ts";
import { countInstantRunoff, countStv } from "./stv.ts";

const repeat = (times: number, ranking: string[]) => Array.from({ length: times }, () => ranking);

describe("instant-runoff", () => {
  // The Tennessee capital example (Wikipedia, 'Instant-runoff voting'): 100 voters, Knoxville wins.
  const ballots = [
    ...repeat(42, ["Memphis", "Nashville", "Chattanooga", "Knoxville"]),
    ...repeat(26, ["Nashville", "Chattanooga", "Knoxville", "Memphis"]),
    ...repeat(15, ["Chattanooga", "Knoxville", "Nashville", "Memphis"]),
    ...repeat(17, ["Knoxville", "Chattanooga", "Nashville", "Memphis"]),
  ];
  const candidates = ["Memphis", "Nashville", "Chattanooga", "Knoxville"];

  it("excludes the lowest until someone holds more than half of the votes still in the count", () => {
    const result = countInstantRunoff({ candidates, ballots, lotSeed: "s" });
    expect(result.rule).toBe("instant-runoff");
    expect(result.elected).toEqual(["Knoxville"]);
    expect(result.rounds.map((r) => r.votes)).toEqual([
      { Memphis: 42, Nashville: 26, Chattanooga: 15, Knoxville: 17 },
      { Memphis: 42, Nashville: 26, Chattanooga: 0, Knoxville: 32 },
      { Memphis: 42, Nashville: 0, Chattanooga: 0, Knoxville: 58 },
    ]);
    expect(result.rounds.map((r) => r.excluded)).toEqual([[], ["Chattanooga"], ["Nashville"]]);
    expect(result.rounds[2].decisions).toContainEqual({ candidateId: "Knoxville", outcome: "elected", reason: "majority" });
  });

  it("a first-round majority ends the count at once", () => {
    const result = countInstantRunoff({ candidates: ["A", "B"], ballots: [["A"], ["A"], ["B"]], lotSeed: "s" });
    expect(result.elected).toEqual(["A"]);
    expect(result.rounds).toHaveLength(1);
  });

  it("exhausted ballots leave the count: the majority is of the votes still held", () => {
    // A 4, B 3, C 2 (C's voters rank nobody else): C out, then A has 4 of 7.
    const result = countInstantRunoff({ candidates: ["A", "B", "C"], ballots: [...repeat(4, ["A"]), ...repeat(3, ["B"]), ...repeat(2, ["C"])], lotSeed: "s" });
    expect(result.elected).toEqual(["A"]);
    expect(result.rounds.at(-1)!.nonTransferable).toBe(2);
  });
});

describe("Scottish STV", () => {
  it("uses the Droop quota of rule 46 and names the rule", () => {
    const result = countStv({ candidates: ["A", "B", "C"], seats: 2, ballots: repeat(10, ["A"]), lotSeed: "s" });
    expect(result.rule).toBe("scottish-stv");
    expect(result.quota).toBe(4); // floor(10 / 3) + 1
  });

  it("transfers a surplus at values truncated to five decimal places", () => {
    // A has 7 first preferences, quota 4 (9 ballots, 2 seats): each paper moves at 3/7 = 0.42857(14...).
    const ballots = [...repeat(7, ["A", "B"]), ...repeat(2, ["C"])];
    const result = countStv({ candidates: ["A", "B", "C"], seats: 2, ballots, lotSeed: "s" });
    expect(result.rounds[1].stage).toEqual({ kind: "surplus", from: "A" });
    expect(result.rounds[1].votes).toEqual({ A: 4, B: 2.99999, C: 2 });
    expect(result.rounds[1].lostToRounding).toBe(0.00001);
    expect(result.elected).toEqual(["A", "B"]);
  });

  it("breaks a tie for exclusion by the most recent earlier stage where the candidates differed", () => {
    // droop's weak-defeat case: B and C tie at 3 after A's exclusion; at the first stage B had fewer.
    const ballots = [["A", "B"], ...repeat(2, ["B"]), ...repeat(3, ["C"]), ...repeat(4, ["D"]), ...repeat(5, ["E"])];
    const result = countStv({ candidates: ["A", "B", "C", "D", "E"], seats: 2, ballots, lotSeed: "s" });
    const second = result.rounds[2];
    expect(second.stage).toEqual({ kind: "exclusion", from: "B", tieBreak: "earlier-stage", tiedWith: ["B", "C"] });
    expect(second.decisions[0]).toEqual({ candidateId: "B", outcome: "excluded", reason: "lowest", tieBreak: "earlier-stage", tiedWith: ["B", "C"] });
  });

  it("draws ties equal at every stage by the published seed, the same way every time", () => {
    // C reaches the quota of 6 exactly (no surplus); A and B are equal at every stage.
    const ballots = [...repeat(5, ["A"]), ...repeat(5, ["B"]), ...repeat(6, ["C"])];
    const count = (lotSeed: string) => countStv({ candidates: ["A", "B", "C"], seats: 2, ballots, lotSeed });
    const first = count("position-1");
    expect(first.rounds[1].stage).toMatchObject({ kind: "exclusion", tieBreak: "lot", tiedWith: ["A", "B"] });
    const drawn = drawLot(["A", "B"], "position-1", 1);
    expect(first.rounds[1].excluded).toEqual([drawn]);
    expect(count("position-1")).toEqual(first);
    // Some seed draws the other candidate: the seed, not the candidate order, decides.
    const seeds = Array.from({ length: 20 }, (_, i) => `seed-${i}`);
    expect(new Set(seeds.map((s) => count(s).rounds[1].excluded[0]))).toEqual(new Set(["A", "B"]));
  });

  it("elects the continuing candidates when they are as many as the seats left (rule 52)", () => {
    // Quota 4: A reaches it; C is excluded; B is then the only continuing candidate for the last seat.
    const ballots = [...repeat(4, ["A"]), ...repeat(3, ["B"]), ...repeat(2, ["C"])];
    const result = countStv({ candidates: ["A", "B", "C"], seats: 2, ballots, lotSeed: "s" });
    expect(result.elected).toEqual(["A", "B"]);
    expect(result.rounds.map((r) => r.decisions.map((d) => [d.candidateId, d.outcome, d.reason]))).toEqual([
      [["A", "elected", "quota"]],
      [
        ["C", "excluded", "lowest"],
        ["B", "elected", "last-seats"],
      ],
    ]);
    expect(result.rounds[1].votes).toEqual({ A: 4, B: 3, C: 0 });
  });

  it("elects nobody from no ballots", () => {
    const result = countStv({ candidates: ["A", "B", "C"], seats: 2, ballots: [], lotSeed: "s" });
    expect(result.elected).toEqual([]);
    expect(result.rounds).toHaveLength(1);
  });

  it("ignores unknown candidates and repeated marks on a ballot", () => {
    const result = countStv({ candidates: ["A", "B"], seats: 1, ballots: [["X", "A", "A", "B"], []], lotSeed: "s" });
    expect(result.ballots).toBe(1);
    expect(result.rounds[0].votes).toEqual({ A: 1, B: 0 });
  });
});

describe("several seats by plurality", () => {
  it("elects the seats with most votes", () => {
    const result = countPlurality({ candidates: ["A", "B", "C", "D"], seats: 2, ballots: [["A", "B"], ["A", "C"], ["B"], ["D", "A"]] });
    expect(result.elected).toEqual(["A", "B"]);
    expect(result.tied).toEqual([]);
    expect(result.rounds[0].votes).toEqual({ A: 3, B: 2, C: 1, D: 1 });
    expect(result.ballots).toBe(4);
  });

  it("reports a tie for the last seat as a tie and elects only those above it", () => {
    const result = countPlurality({ candidates: ["A", "B", "C", "D"], seats: 2, ballots: [["A", "B"], ["A", "C"], ["D"]] });
    expect(result.elected).toEqual(["A"]);
    expect(result.tied).toEqual(["B", "C", "D"]);
  });

  it("never elects a candidate without votes", () => {
    const result = countPlurality({ candidates: ["A", "B", "C"], seats: 2, ballots: [["A"]] });
    expect(result.elected).toEqual(["A"]);
    expect(result.tied).toEqual([]);
  });
});

describe("referendum", () => {
  it("passes strictly above the threshold of Yes among Yes and No; abstentions do not count", () => {
    expect(referendumOutcome(6, 4, 100)).toEqual({ yes: 6, no: 4, abstentions: 100, passed: true });
    expect(referendumOutcome(5, 5, 0).passed).toBe(false);
    expect(referendumOutcome(2, 1, 0, 2 / 3).passed).toBe(false);
    expect(referendumOutcome(201, 100, 0, 2 / 3).passed).toBe(true);
    expect(referendumOutcome(0, 0, 3).passed).toBe(false);
  });
});

describe("BLT", () => {
  it("writes a file another tool reads back to the same ballots, in no particular arrival order", () => {
    const election = {
      title: 'Class "Reps"',
      seats: 2,
      candidates: [
        { id: "c1", name: "Ada" },
        { id: "c2", name: "Bo" },
        { id: "c3", name: "Cy" },
      ],
      ballots: [["c2", "c1"], ["c1"], ["c2", "c1"], ["c3", "c2", "c1"]],
    };
    const text = writeBlt(election);
    expect(text).toBe(['3 2', '2 2 1 0', '1 1 0', '1 3 2 1 0', '0', '"Ada"', '"Bo"', '"Cy"', `"Class 'Reps'"`, ""].join("\n"));
    const back = parseBlt(text);
    expect(back.seats).toBe(2);
    const name = (id: string) => back.candidates.find((c) => c.id === id)!.name;
    expect(back.ballots.map((b) => b.map(name).join(">")).sort()).toEqual(["Ada", "Bo>Ada", "Bo>Ada", "Cy>Bo>Ada"]);
    expect(writeBlt({ ...election, ballots: [...election.ballots].reverse() })).toBe(text);
  });
});
