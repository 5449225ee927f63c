/**
 * The election's title and subtitle for the login page: the baseline's (docs/product.md) until the
 * server answers, and if it cannot. A plain request, not a query: react-query's query
 * observer would add ~3 KB gzip to /login's first load (150 KB budget) for one read.
 */
import { useEffect, useState } from "react";
import { ELECTION_SUBTITLE, ELECTION_TITLE, type PublicElection } from "@evoting/shared";
import { electionApi } from "../../api/election";

export function usePublicElection(): PublicElection {
  const [election, setElection] = useState<PublicElection>({ title: ELECTION_TITLE, subtitle: ELECTION_SUBTITLE });
  useEffect(() => {
    let current = true;
    electionApi.publicElection().then(
      (answer) => current && setElection({ title: answer.title, subtitle: answer.subtitle }),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, []);
  return election;
}
