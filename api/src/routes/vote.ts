/** /vote: the ballot, casting, the voter's own votes, results and the chat token. */
import { Hono } from "hono";
import {
  CHAT_TOKEN_TTL_MS,
  canVote,
  choiceProblem,
  isEligible,
  markYesNo,
  castVoteSchema,
  messages,
  positionStatus,
  type BallotPosition,
  type CastVoteInput,
  type TokenResponse,
} from "@evoting/shared";
import type { AppEnv, AuthUser, Deps } from "../deps.ts";
import { requireUser, votersOnly } from "../http/auth.ts";
import { fail } from "../http/errors.ts";
import { defineRoute } from "../http/pipeline.ts";
import { signToken, verifyToken } from "../security/keys.ts";
import { issueStreamToken } from "../realtime/stream-auth.ts";
import { methodVoteChoice } from "../services/votes/ballot-rules.ts";
import { listPositions, voterGroups } from "../services/election/catalog.ts";
import { orderForVoter } from "../services/election/settings.ts";
import { castVote, choiceRefOf, findIdempotentAnswer, myVotes } from "../services/votes/cast.ts";
import { castVerifiableBallot, isVerifiablePosition, verifiableMessages, verifiableStates, withBelenios } from "../services/belenios/verifiable.ts";

interface BallotTicket {
  k: "ticket";
  exp: number;
  sub: string;
  pos: string;
  iat: number;
}

/**
 * The two calls that make up nearly all of polling day, each defined once: Hono mounts
 * `hono`, and the listener serves them before Hono from the same definition (http/pipeline.ts).
 */
export function voteHotRoutes(deps: Deps) {
  return {
    cast: defineRoute(deps, {
      method: "POST",
      path: "/api/vote",
      guard: votersOnly(messages.adminsCannotVote),
      body: castVoteSchema,
      idempotencyKey: true,
      handle: async ({ user, body, idempotencyKey }) => {
        const answer = await castVoteRequest(deps, user, body, idempotencyKey);
        return { status: answer.status, json: answer.body };
      },
    }),
    results: defineRoute(deps, {
      method: "GET",
      path: "/api/vote/results",
      // From memory, serialised and encoded once per snapshot (no database read per request).
      handle: async ({ user }) => {
        const bytes = await deps.results.bytesFor(user.role, deps.clock.now());
        if (!bytes) fail(403, messages.resultsHidden);
        return { status: 200, bytes };
      },
    }),
  };
}

export function voteRoutes(deps: Deps, hot: ReturnType<typeof voteHotRoutes>) {
  const { database, keys, clock } = deps;
  const signedIn = requireUser(deps);

  /**
   * A ballot ticket says "this voter had this position's ballot open at iat". It lets a vote
   * queued offline before the close be delivered up to VOTE_GRACE_MINUTES after it
   * (docs/decisions/0002-offline-votes-after-close.md).
   */
  const issueTicket = (userId: string, positionId: string, endTime: number, now: number) =>
    signToken(keys, { k: "ticket", sub: userId, pos: positionId, iat: now, exp: endTime + deps.config.voteGraceMs });

  return new Hono<AppEnv>()
    .get("/positions", signedIn, async (c) => {
      const now = clock.now();
      const isVoter = canVote(c.var.user.role);
      const [positions, election, groups] = await Promise.all([
        listPositions(database.db),
        deps.electionSettings.get(),
        isVoter ? voterGroups(database, c.var.user.id) : [],
      ]);
      // 'Random' order is the voter's own; a position the voter may not vote for
      // is marked so the vote page leaves it out (All Candidates still lists its candidates).
      // A lone candidate is a Yes/No vote only where the election says so (off by default).
      const ordered = isVoter && election.ballotOrder === "random" ? orderForVoter(keys, c.var.user.id, positions) : positions;
      const list = withBelenios(markYesNo(ordered, election.unopposed), await verifiableStates(database));
      return c.json(
        list.map((p): BallotPosition => {
          if (isVoter && !isEligible(p.eligibleGroups ?? [], groups)) return { ...p, eligible: false };
          const start = Date.parse(p.startTime);
          const end = Date.parse(p.endTime);
          const open = positionStatus(now, start, end) === "active";
          return isVoter && open ? { ...p, ballotTicket: issueTicket(c.var.user.id, p._id, end, now) } : p;
        }),
      );
    })
    .get("/my-votes", signedIn, async (c) => c.json(await myVotes(database, keys, c.var.user.id)))
    .get("/results", ...hot.results.hono)
    // Bound to this session: a logout ends it (realtime/stream-auth.ts).
    .get("/chat-token", signedIn, (c) => c.json(issueStreamToken(deps, "chat", c.var.user.id, c.var.tokenHash, CHAT_TOKEN_TTL_MS) satisfies TokenResponse))
    .post("/", ...hot.cast.hono);
}

/**
 * A vote from a voter, its body and Idempotency-Key checked (http/pipeline.ts): every rule the
 * API enforces on a vote, then the vote itself. Refusals throw (http/errors.ts `fail`).
 */
async function castVoteRequest(deps: Deps, user: AuthUser, body: CastVoteInput, key: string | undefined): Promise<{ status: number; body: unknown }> {
  const { database, keys, clock } = deps;
  const { positionId, candidateId, ballotTicket } = body;
  const voterId = user.id;
  // A replay answers as the first request did, whatever has changed since (window, etc.).
  // Only a request the checks below would refuse needs to look first: otherwise castVote
  // claims the key in its own write and answers a replay from the stored row, which
  // saves a read on every fresh vote (bench/).
  const storedAnswer = async () => {
    if (!key) return null;
    const stored = await findIdempotentAnswer(database, keys, voterId, key, positionId, choiceRefOf(body));
    if (stored === "mismatch") fail(422, messages.idempotencyKeyReused);
    return stored;
  };

  const { position, candidate } = await deps.ballotRules.find(positionId, candidateId ?? "");
  const now = clock.now();
  const status = position ? positionStatus(now, position.startTime, position.endTime) : "ended";
  if (position && (body.ballot !== undefined || (await isVerifiablePosition(database, positionId)))) {
    return castVerifiableRequest(deps, user, body, position, status, now);
  }
  // A 'no'/'abstain' must be on this ballot, and a position limited to groups
  // takes votes only from voters in them.
  // Only a 'no'/'abstain' reads the settings (kept in memory), so a candidate vote costs nothing more.
  // Multi, ranked and referendum positions check their own ballots (shared ballot-methods.ts).
  const methodChoice = position ? methodVoteChoice(position, body) : null;
  const single = methodChoice === null;
  const kindProblem =
    typeof methodChoice === "string"
      ? methodChoice
      : single && position && body.choice && body.choice !== "yes"
        ? choiceProblem(body.choice, { ...position, unopposed: (await deps.electionSettings.get()).unopposed })
        : null;
  const eligible = !position?.eligibleGroups.length || isEligible(position.eligibleGroups, await voterGroups(database, voterId));
  const candidateOk = !single || body.choice !== undefined || (candidate !== undefined && candidate.positionId === positionId);
  if (!position || position.frozen || !candidateOk || kindProblem || !eligible || status !== "active") {
    const stored = await storedAnswer();
    if (stored) return stored;
  }
  if (!position) fail(404, messages.positionNotFound);
  if (position.frozen) fail(409, messages.electionDeclared);
  if (kindProblem) fail(400, kindProblem);
  if (single && !body.choice) {
    if (!candidate) fail(404, messages.candidateNotFound);
    if (candidate.positionId !== positionId) fail(400, messages.candidateNotInPosition);
  }
  if (!eligible) fail(403, messages.notEligible);

  if (status === "upcoming") fail(403, messages.votingNotStarted);
  if (status === "ended") {
    const ticket = ballotTicket ? verifyToken<BallotTicket>(keys, ballotTicket, "ticket", now) : null;
    // The grace runs from the position's CURRENT end: a position closed early takes no vote
    // after its own end plus the grace, whatever end the ticket was issued under.
    const inGrace =
      ticket !== null && ticket.sub === voterId && ticket.pos === positionId && ticket.iat <= position.endTime &&
      now <= position.endTime + deps.config.voteGraceMs;
    if (!inGrace) fail(403, messages.votingEnded);
  }

  const answer = await castVote(deps, {
    voterId,
    positionId,
    choice:
      methodChoice && typeof methodChoice !== "string"
        ? methodChoice
        : body.choice && body.choice !== "yes"
          ? { kind: body.choice }
          : { kind: "candidate", candidateId: candidateId ?? "", candidateName: candidate?.name ?? "" },
    ...(methodChoice && typeof methodChoice !== "string" && "marks" in methodChoice ? { markNames: await deps.ballotRules.names(methodChoice.marks) } : {}),
    idempotencyKey: key,
    now,
  });
  if (answer === "mismatch") fail(422, messages.idempotencyKeyReused);
  if (answer === "stale") {
    // The ballot changed between the checks above and the write: answer as the rules now read.
    const now = await deps.ballotRules.find(positionId, candidateId ?? "");
    if (!now.position) fail(404, messages.positionNotFound);
    if (now.position.frozen) fail(409, messages.electionDeclared);
    fail(404, messages.candidateNotFound);
  }
  if (answer.status === 201) deps.hub.resultsChanged();
  if (answer.status === 409) {
    // Tell the voter what the server holds, so a device that queued a vote elsewhere can
    // show the choice that counted without another request.
    const vote = (await myVotes(database, keys, voterId)).find((v) => v.positionId === positionId);
    return { status: 409, body: { ...(answer.body as object), ...(vote ? { vote } : {}) } };
  }
  return answer;
}

/**
 * A verifiable position's vote (docs/verifiable.md): the same window, grace and eligibility
 * rules as every vote, then the Belenios ballot's own checks (services/belenios/verifiable.ts).
 * A resent ballot (same text) answers as the first time did, which is what an Idempotency-Key
 * retry needs: the outbox resends the same body.
 */
async function castVerifiableRequest(
  deps: Deps,
  user: AuthUser,
  body: CastVoteInput,
  position: { frozen: boolean; eligibleGroups: string[]; startTime: number; endTime: number },
  status: string,
  now: number,
): Promise<{ status: number; body: unknown }> {
  const { database, keys } = deps;
  const { positionId, ballot, ballotTicket } = body;
  if (!(await isVerifiablePosition(database, positionId))) fail(400, verifiableMessages.notVerifiable);
  if (!ballot) fail(400, verifiableMessages.needsBallot);
  if (position.frozen) fail(409, messages.electionDeclared);
  if (position.eligibleGroups.length && !isEligible(position.eligibleGroups, await voterGroups(database, user.id))) fail(403, messages.notEligible);
  if (status === "upcoming") fail(403, messages.votingNotStarted);
  if (status === "ended") {
    const ticket = ballotTicket ? verifyToken<BallotTicket>(keys, ballotTicket, "ticket", now) : null;
    const inGrace =
      ticket !== null && ticket.sub === user.id && ticket.pos === positionId && ticket.iat <= position.endTime &&
      now <= position.endTime + deps.config.voteGraceMs;
    if (!inGrace) fail(403, messages.votingEnded);
  }
  const { tracker, replay } = await castVerifiableBallot(database, deps.keys, positionId, user.id, ballot, now);
  if (!replay) {
    deps.results.changed();
    deps.hub.resultsChanged();
  }
  return { status: 201, body: { tracker, message: messages.castVoteSuccess } };
}
