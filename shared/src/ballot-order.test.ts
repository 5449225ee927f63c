import { describe, expect, test } from "vitest";
import { seededBallotOrder } from "./ballot-order.ts";

const ids = ["c1", "c2", "c3", "c4", "c5"];
const positions = [
  { _id: "president", candidates: ids.map((_id) => ({ _id, name: _id.toUpperCase() })) },
  { _id: "lone", candidates: [{ _id: "c9", name: "C9" }] },
];
const orderOf = (seed: string, voterId: string) => seededBallotOrder(positions, seed, voterId)[0].candidates.map((c) => c._id);
const voters = Array.from({ length: 200 }, (_, i) => `voter-${i}`);

describe("seeded ballot order", () => {
  test("a permutation of each position's candidates, positions and candidate fields kept, input untouched", () => {
    const out = seededBallotOrder(positions, "seed", "v1");
    expect(out.map((p) => p._id)).toEqual(["president", "lone"]);
    expect([...out[0].candidates].sort((a, b) => a._id.localeCompare(b._id))).toEqual(positions[0].candidates);
    expect(out[1].candidates).toEqual(positions[1].candidates);
    expect(positions[0].candidates.map((c) => c._id)).toEqual(ids);
  });

  test("stable for a voter, whatever order the candidates arrive in", () => {
    const reversed = [{ ...positions[0], candidates: [...positions[0].candidates].reverse() }];
    expect(orderOf("seed", "v1")).toEqual(orderOf("seed", "v1"));
    expect(seededBallotOrder(reversed, "seed", "v1")[0].candidates.map((c) => c._id)).toEqual(orderOf("seed", "v1"));
  });

  test("voters get their own orders, and a different seed gives different orders", () => {
    const orders = new Set(voters.map((v) => orderOf("seed", v).join()));
    expect(orders.size).toBeGreaterThan(50);
    expect(voters.filter((v) => orderOf("seed", v).join() !== orderOf("other-seed", v).join()).length).toBeGreaterThan(150);
  });

  test("no candidate is favoured with the first place", () => {
    const firsts = new Map<string, number>();
    for (const v of Array.from({ length: 5000 }, (_, i) => `v${i}`)) {
      const first = orderOf("seed", v)[0];
      firsts.set(first, (firsts.get(first) ?? 0) + 1);
    }
    // 1,000 expected each; a fair order stays well inside 850..1150.
    for (const id of ids) expect(firsts.get(id)).toBeGreaterThan(850);
    for (const id of ids) expect(firsts.get(id)).toBeLessThan(1150);
  });
});
