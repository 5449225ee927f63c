/**
 * Nothing about a declared election changes through the API: while the current election is
 * declared, every write to its positions, candidates, settings and stations answers 409, and a
 * write naming a position or candidate of a past election answers 409 whatever the current one
 * is. Votes are refused by the ballot rules (services/votes/ballot-rules.ts), which know each
 * position's election without a read per vote.
 */
import type { MiddlewareHandler } from "hono";
import { messages } from "@evoting/shared";
import type { AppEnv, Deps } from "../deps.ts";
import { currentElection, positionFrozen } from "../services/election/elections.ts";
import { fail } from "./errors.ts";

const READS = new Set(["GET", "HEAD", "OPTIONS"]);

/** The admin paths (under /admin) whose writes change the current election. */
const ELECTION_WRITES = /^\/(positions|candidates|election|stations)(\/|$)/;

export async function refuseIfDeclared(deps: Pick<Deps, "database">): Promise<void> {
  if ((await currentElection(deps.database)).state !== "open") fail(409, messages.electionDeclared);
}

/** For the /admin router: `path` is the request path below /admin. */
export function electionWriteGuard(deps: Pick<Deps, "database">, prefix: string): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const path = c.req.path.slice(c.req.path.indexOf(prefix) + prefix.length);
    if (READS.has(c.req.method) || !ELECTION_WRITES.test(path) || path.startsWith("/election/declare")) return next();
    await refuseIfDeclared(deps);
    const [, kind, id] = path.split("/");
    if (id && kind === "positions" && (await positionFrozen(deps.database, { positionId: id }))) fail(409, messages.electionDeclared);
    if (id && kind === "candidates" && (await positionFrozen(deps.database, { candidateId: id }))) fail(409, messages.electionDeclared);
    return next();
  };
}
