/** Vote page test fixtures: open ballot positions and a server that records the votes cast. */
import type { BallotPosition, Candidate, MyVote } from "@evoting/shared";
import { json, mockFetch } from "./fetch-mock";

const hour = 3_600_000;

/** A ballot position open from an hour ago to an hour from now, with candidates `${id}-c${i}`. */
export function openPosition(
  id: string,
  title: string,
  names: string[],
  extra: Partial<BallotPosition> = {},
  candidate: (i: number) => Partial<Candidate> = () => ({}),
): BallotPosition {
  return {
    _id: id,
    title,
    startTime: new Date(Date.now() - hour).toISOString(),
    endTime: new Date(Date.now() + hour).toISOString(),
    ballotTicket: `ticket-${id}`,
    candidates: names.map((name, i) => ({
      _id: `${id}-c${i}`,
      name,
      photo: null,
      position: { _id: id, title },
      positionId: id,
      positionTitle: title,
      ...candidate(i),
    })),
    ...extra,
  };
}

/** The vote page's calls: the ballot, the voter's votes (growing as they vote), results; a cast answers 201. */
export function votePageServer(positions: BallotPosition[], candidateName = "Amaka Nwosu") {
  const votes: MyVote[] = [];
  return mockFetch({
    "GET /api/vote/positions": () => json(positions),
    "GET /api/vote/my-votes": () => json(votes),
    "GET /api/vote/results": () => json({ totalRegisteredVoters: 1, totalVotesCast: 1, results: [], generatedAt: "" }),
    "POST /api/vote": (init) => {
      const body = JSON.parse(init.body as string) as { positionId: string; candidateId?: string; choice?: "yes" | "no" | "abstain"; candidateIds?: string[]; ranking?: string[] };
      // Several marks come back as the API answers them: every id and name, the first as candidateId/Name.
      const marks = body.ranking ?? body.candidateIds;
      const names = marks?.map((id) => positions.flatMap((p) => p.candidates).find((c) => c._id === id)?.name ?? "");
      const vote: MyVote = body.choice
        ? { positionId: body.positionId, candidateId: "", candidateName: "", choice: body.choice }
        : marks
          ? { positionId: body.positionId, candidateId: marks[0], candidateName: names![0], candidateIds: marks, candidateNames: names }
          : { positionId: body.positionId, candidateId: body.candidateId!, candidateName };
      votes.push(vote);
      return json({ message: "Vote cast successfully!", vote }, 201);
    },
  });
}
