import { useQuery } from "@tanstack/react-query";
import { SPEC_ELECTION, electionQuery } from "../../data/election";
import { CountdownTile } from "./CountdownTile";

/**
 * The landing page's banner: the election's title and window from its settings,
 * the baseline's fixed election until they have loaded (docs/product.md).
 */
export function ElectionBanner() {
  const { data: election = SPEC_ELECTION } = useQuery(electionQuery());
  return (
    <section
      aria-labelledby="election-title"
      className="relative overflow-hidden rounded-3xl bg-gradient-to-br from-indigo-700 via-indigo-600 to-violet-700 px-6 py-8 text-white shadow-lg sm:px-10"
    >
      <div aria-hidden="true" className="absolute -right-16 -top-20 size-64 rounded-full bg-white/10" />
      <div aria-hidden="true" className="absolute -bottom-24 left-1/3 size-72 rounded-full bg-white/5" />
      <div className="relative flex flex-col gap-6 md:flex-row md:items-center md:justify-between">
        <div>
          <h1 id="election-title" className="text-3xl font-extrabold tracking-tight sm:text-4xl">
            {election.title}
          </h1>
          {election.subtitle && <p className="mt-2 text-lg font-medium text-indigo-50">{election.subtitle}</p>}
        </div>
        <CountdownTile start={election.startTime} end={election.endTime} />
      </div>
    </section>
  );
}
