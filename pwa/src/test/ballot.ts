/** A ballot position open from an hour ago to an hour from now, with candidates `${id}-c${i}`. */
import type { BallotPosition, Candidate } from "@evoting/shared";

const hour = 3_600_000;

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
