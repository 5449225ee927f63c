import { describe, expect, test } from "vitest";
import type { MyVote } from "@evoting/shared";
import { positionVoteStatus, type PositionVoteStatus } from "./vote-status";

const vote: MyVote = { positionId: "p1", candidateId: "c1", candidateName: "Amaka Nwosu" };

describe("positionVoteStatus", () => {
  test("each position's status follows the server's votes, then what is being sent, then this device", () => {
    const queued: PositionVoteStatus = { kind: "queued", vote: { ...vote, positionId: "p3" } };
    const inputs = { myVotes: [vote], castingIds: new Set(["p2"]), local: new Map([["p3", queued]]) };
    expect(positionVoteStatus("p1", inputs)).toEqual({ kind: "voted", vote });
    expect(positionVoteStatus("p2", inputs)).toEqual({ kind: "casting" });
    expect(positionVoteStatus("p3", inputs)).toBe(queued);
    expect(positionVoteStatus("p4", inputs)).toEqual({ kind: "not-voted" });
  });

  test("the same inputs give the same object, so an unchanged card is not rendered again", () => {
    const first = { myVotes: [vote], castingIds: new Set(["p2"]) };
    // A re-render builds new lists around the same votes.
    const again = { myVotes: [...first.myVotes], castingIds: new Set(first.castingIds), local: new Map() };
    for (const id of ["p1", "p2", "p9"]) expect(positionVoteStatus(id, again)).toBe(positionVoteStatus(id, first));
    // A new vote object (a fresh answer from the server) is a new status.
    expect(positionVoteStatus("p1", { myVotes: [{ ...vote }] })).not.toBe(positionVoteStatus("p1", first));
  });

  test("a verifiable vote the server lists without its tracker shows this device's record, tracker and choice", () => {
    const mine: MyVote = { positionId: "p1", candidateId: "c1", candidateName: "Amaka Nwosu", tracker: "T1" };
    const server: MyVote = { positionId: "p1", candidateId: "", candidateName: "" };
    const local = new Map<string, PositionVoteStatus>([["p1", { kind: "voted", vote: mine }]]);
    expect(positionVoteStatus("p1", { myVotes: [server], local })).toEqual({ kind: "voted", vote: mine });
    expect(positionVoteStatus("p1", { myVotes: [vote] })).toEqual({ kind: "voted", vote });
  });
});
