/**
 * /station: the polling-station device (issue 14). A staff member (admin, observer or officer)
 * assigned to a live station signs in as usual, opens a station session on the device, takes
 * the package it needs to work alone, and delivers sealed ballots, now or after an outage.
 * Ballot rules and their order: services/stations/station-ballots.ts; trust: docs/decisions/0009.
 */
import { Hono } from "hono";
import { createMiddleware } from "hono/factory";
import {
  isStaff,
  markYesNo,
  messages,
  openStationSchema,
  sealedStationBallotSchema,
  type StationPackage,
  type StationSessionInfo,
} from "@evoting/shared";
import type { AppEnv, Deps } from "../deps.ts";
import { requireUser } from "../http/auth.ts";
import { fail } from "../http/errors.ts";
import { jsonBody } from "../http/validate.ts";
import { fingerprint } from "../security/keys.ts";
import { audit } from "../http/audit.ts";
import { listPositions } from "../services/election/catalog.ts";
import { getElection } from "../services/election/settings.ts";
import { deliverStationBallot } from "../services/stations/station-ballots.ts";
import {
  closeStationSession,
  findStation,
  findStationSession,
  isAssigned,
  openStationSession,
  searchRoll,
  stationRoll,
  stationSessionKey,
  stationsOf,
} from "../services/stations/stations.ts";

/** Most voters a look-up answers with: the officer narrows the query instead. */
const LOOKUP_LIMIT = 20;

export function stationRoutes(deps: Deps) {
  const { database, keys, clock } = deps;
  const staffOnly = createMiddleware<AppEnv>(async (c, next) => {
    if (!isStaff(c.var.user.role)) fail(403, messages.stationStaffOnly);
    await next();
  });

  /** The station session named by `?session=`, open, at a live station this user staffs. */
  const liveSession = async (userId: string, sessionId: string | undefined) => {
    const session = sessionId ? await findStationSession(database, sessionId) : null;
    if (!session || session.closedAt !== null) fail(403, messages.stationSessionInvalid);
    const station = await findStation(database, session.stationId);
    if (!station) fail(404, messages.stationNotFound);
    if (station.revokedAt !== null) fail(403, messages.stationRevoked);
    if (!(await isAssigned(database, station.id, userId))) fail(403, messages.stationNotAssigned);
    return { session, station };
  };

  return new Hono<AppEnv>()
    .use(requireUser(deps), staffOnly)
    .get("/mine", async (c) => c.json(await stationsOf(database, c.var.user.id)))

    .post("/sessions", ...jsonBody(openStationSchema), async (c) => {
      const station = await findStation(database, c.req.valid("json").stationId);
      if (!station) fail(404, messages.stationNotFound);
      if (station.revokedAt !== null) fail(403, messages.stationRevoked);
      if (!(await isAssigned(database, station.id, c.var.user.id))) fail(403, messages.stationNotAssigned);
      const now = clock.now();
      const session = await openStationSession(database, {
        stationId: station.id,
        officerId: c.var.user.id,
        loginTokenHash: c.var.tokenHash,
        now,
      });
      await audit(deps, c, {
        action: "station.signin",
        target: `station:${station.id} "${station.name}"`,
        summary: `Signed in to polling station "${station.name}" on a device`,
      });
      return c.json(
        {
          sessionId: session.id,
          key: stationSessionKey(keys, session.id).toString("base64url"),
          station: { _id: station.id, name: station.name },
          serverTime: new Date(now).toISOString(),
          expiresAt: new Date(session.loginExpiresAt).toISOString(),
        } satisfies StationSessionInfo,
        201,
      );
    })

    .post("/sessions/:id/close", async (c) => {
      const { session, station } = await liveSession(c.var.user.id, c.req.param("id"));
      await closeStationSession(database, session.id, clock.now());
      await audit(deps, c, {
        action: "station.signout",
        target: `station:${station.id} "${station.name}"`,
        summary: `Signed out of polling station "${station.name}" on a device`,
      });
      return c.body(null, 204);
    })

    .get("/package", async (c) => {
      const { station } = await liveSession(c.var.user.id, c.req.query("session"));
      const [positions, roll, election] = await Promise.all([listPositions(database.db), stationRoll(database), getElection(database)]);
      return c.json({
        station: { _id: station.id, name: station.name },
        // The station's cards show Yes/No exactly where the vote page does.
        positions: markYesNo(positions, election.unopposed),
        election,
        // Derived from the server's key, not the key: it reveals nothing but the order. Hex, so
        // it can never spell a word the package must not hold.
        ballotOrderSeed: Buffer.from(fingerprint(keys, "station-ballot-order"), "base64url").toString("hex"),
        roll,
        generatedAt: new Date(clock.now()).toISOString(),
      } satisfies StationPackage);
    })

    .get("/voters", async (c) => {
      await liveSession(c.var.user.id, c.req.query("session"));
      const query = (c.req.query("query") ?? "").trim().slice(0, 120);
      if (!query) return c.json([]);
      return c.json(await searchRoll(database, query, LOOKUP_LIMIT));
    })

    .post("/ballots", ...jsonBody(sealedStationBallotSchema), async (c) => {
      const result = await deliverStationBallot(deps, {
        sealed: c.req.valid("json"),
        idempotencyKey: c.req.header("idempotency-key")?.trim(),
        officerId: c.var.user.id,
        now: clock.now(),
        graceMs: deps.config.voteGraceMs,
      });
      if (result.kind === "refused") fail(result.status, result.message);
      const { answer, fresh, stationName } = result;
      if (fresh) {
        const counted = answer.outcomes.filter((o) => o.counted).length;
        const target = `station:${c.req.valid("json").sessionId}`;
        // Who voted where is already known to the officer who saw them; what they chose never is.
        await audit(deps, c, {
          action: "station.ballot",
          target,
          summary: `Ballot taken at polling station "${stationName}": ${counted} of ${answer.outcomes.length} positions counted`,
        });
        for (const o of answer.outcomes.filter((x) => !x.counted)) {
          await audit(deps, c, {
            action: "station.refusal",
            target,
            summary: `Refused at polling station "${stationName}": ${answer.voter.name} (${answer.voter.matricNumber}), ${o.positionTitle || o.positionId}: ${o.message}`,
          });
        }
        if (counted > 0) deps.hub.resultsChanged();
      }
      return c.json(answer);
    });
}
