/** Query and mutation keys, in a module of their own so the offline runtime can name them too. */
export const queryKeys = {
  profile: ["auth", "profile"] as const,
  ballotPositions: ["vote", "positions"] as const,
  myVotes: ["vote", "my-votes"] as const,
  results: ["vote", "results"] as const,
  adminPositions: ["admin", "positions"] as const,
  /** Election settings: every signed-in page; the login page reads the public title. */
  election: ["election"] as const,
  adminCandidates: ["admin", "candidates"] as const,
  /** The voter roll's pages; each page adds its filters to this key. */
  voters: ["admin", "voters"] as const,
  /** A voter's applications and the nominations waiting for their answer. */
  myNominations: ["nominations"] as const,
  /** The committee's list; each filter adds to this key. */
  adminNominations: ["admin", "nominations"] as const,
};

export const mutationKeys = {
  castVote: ["vote", "cast"] as const,
};
