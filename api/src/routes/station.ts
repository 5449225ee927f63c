/**
 * /station: the polling-station device. A staff member (admin, observer or officer)
 * assigned to a live station signs in as usual, opens a station session on the device, takes
 * the package it needs to work alone, and delivers sealed ballots, now or after an outage.
 * Ballot rules and their order: services/stations/station-ballots.ts; trust: docs/decisions/0009.
 */
import { Hono, type Context } from "hono";
import { createMiddleware } from "hono/factory";
import { bodyLimit } from "hono/body-limit";
import {
  isStaff,
  closeStationSchema,
  markYesNo,
  MAX_SEALED_STATION_BALLOT,
  messages,
  openStationSchema,
  sealedStationBallotSchema,
  type StationPackage,
  type StationSessionInfo,
} from "@evoting/shared";
import { eq } from "drizzle-orm";
import type { AppEnv, Deps } from "../deps.ts";
import { users } from "../db/schema.ts";
import { requestAddress, requireUser } from "../http/auth.ts";
import { fail, tooMany } from "../http/errors.ts";
import { verifySecret } from "../security/passwords.ts";
import { jsonBody } from "../http/validate.ts";
import { fingerprint } from "../security/keys.ts";
import { audit } from "../http/audit.ts";
import { listPositions } from "../services/election/catalog.ts";
import { stationCredentialLists, verifiableStates, withBelenios } from "../services/belenios/verifiable.ts";
import { deliverStationBallot } from "../services/stations/station-ballots.ts";
import { auditStationAnswer, auditUnreadable } from "./station-audit.ts";
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

/** A sealed ballot at its largest (shared stations.ts) and the rest of its JSON. */
const STATION_BALLOT_BODY_LIMIT = MAX_SEALED_STATION_BALLOT + 4 * 1024;

/** Most voters a look-up answers with: the officer narrows the query instead. */
const LOOKUP_LIMIT = 20;

export function stationRoutes(deps: Deps) {
  const { database, keys, clock } = deps;
  const staffOnly = createMiddleware<AppEnv>(async (c, next) => {
    if (!isStaff(c.var.user.role)) fail(403, messages.stationStaffOnly);
    await next();
  });

  /**
   * The station session named by `?session=`, open, at a live station this user staffs; a
   * device's token serves its own station session only.
   */
  const liveSession = async (c: Context<AppEnv>, sessionId: string | undefined) => {
    const userId = c.var.user.id;
    if (c.var.stationSessionId && sessionId !== c.var.stationSessionId) fail(403, messages.stationSessionEnded);
    const session = sessionId ? await findStationSession(database, sessionId) : null;
    if (!session || session.closedAt !== null) fail(403, messages.stationSessionEnded);
    const station = await findStation(database, session.stationId);
    if (!station) fail(404, messages.stationNotFound);
    if (station.revokedAt !== null) fail(403, messages.stationRevoked);
    if (!(await isAssigned(database, station.id, userId))) fail(403, messages.stationNotAssigned);
    return { session, station };
  };

  /**
   * The signed-in officer's password, checked as a sign-in is (a counted try, an argon2 slot
   * of the address): a token left on a device must not open a station by itself.
   */
  const provePassword = async (c: Context<AppEnv>, password: string) => {
    const address = requestAddress(c, deps.config.trustProxy);
    const free = deps.throttle.hashSlot(address);
    if (!free) tooMany(1_000);
    try {
      const begun = await deps.throttle.begin(c.var.user.matricNumber, address);
      if (!begun.ok) tooMany(begun.waitMs);
      const [row] = await database.db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, c.var.user.id));
      const ok = row?.passwordHash ? await verifySecret(row.passwordHash, password) : false;
      if (!ok) {
        await begun.attempt.failed();
        fail(400, messages.stationPasswordWrong);
      }
      await begun.attempt.succeeded();
    } finally {
      free();
    }
  };

  return new Hono<AppEnv>()
    .use(requireUser(deps, { stationDevice: true }), staffOnly)
    .get("/mine", async (c) => c.json(await stationsOf(database, c.var.user.id)))

    .post("/sessions", jsonBody(openStationSchema), async (c) => {
      const { stationId, password } = c.req.valid("json");
      const station = await findStation(database, stationId);
      if (!station) fail(404, messages.stationNotFound);
      if (station.revokedAt !== null) fail(403, messages.stationRevoked);
      if (!(await isAssigned(database, station.id, c.var.user.id))) fail(403, messages.stationNotAssigned);
      // A device's token opens sessions at its own station only.
      if (c.var.stationSessionId && (await findStationSession(database, c.var.stationSessionId))?.stationId !== station.id) fail(403, messages.stationSessionEnded);
      await provePassword(c, password);
      const now = clock.now();
      const { row: session, token } = await openStationSession(database, {
        stationId: station.id,
        officerId: c.var.user.id,
        openerTokenHash: c.var.tokenHash,
        now,
      });
      // The token that opened it was revoked in the same write.
      deps.sessions.invalidate();
      await audit(deps, c, {
        action: "station.signin",
        target: `station:${station.id} "${station.name}"`,
        summary: `Signed in to polling station "${station.name}" on a device`,
      });
      return c.json(
        {
          sessionId: session.id,
          token,
          key: stationSessionKey(keys, session.id).toString("base64url"),
          station: { _id: station.id, name: station.name },
          serverTime: new Date(now).toISOString(),
          expiresAt: new Date(session.loginExpiresAt).toISOString(),
        } satisfies StationSessionInfo,
        201,
      );
    })

    // The device asks whether its station session still holds (and so learns the server answers).
    .get("/sessions/:id", async (c) => {
      await liveSession(c, c.req.param("id"));
      return c.json({ open: true });
    })

    .post("/sessions/:id/close", jsonBody(closeStationSchema), async (c) => {
      const { session, station } = await liveSession(c, c.req.param("id"));
      await closeStationSession(database, session.id, clock.now(), c.req.valid("json").pending);
      await audit(deps, c, {
        action: "station.signout",
        target: `station:${station.id} "${station.name}"`,
        summary: `Signed out of polling station "${station.name}" on a device`,
      });
      return c.body(null, 204);
    })

    .get("/package", async (c) => {
      const { station } = await liveSession(c, c.req.query("session"));
      const [positions, roll, election, verifiable, credentialLists] = await Promise.all([
        listPositions(database.db),
        stationRoll(database),
        deps.electionSettings.get(),
        verifiableStates(database),
        stationCredentialLists(database),
      ]);
      return c.json({
        station: { _id: station.id, name: station.name },
        // The station's cards show Yes/No exactly where the vote page does.
        // A verifiable position is marked so the station sends its voter to their own phone.
        positions: withBelenios(markYesNo(positions, election.unopposed), verifiable),
        election,
        // Derived from the server's key, not the key: it reveals nothing but the order. Hex, so
        // it can never spell a word the package must not hold.
        ballotOrderSeed: Buffer.from(fingerprint(keys, "station-ballot-order"), "base64url").toString("hex"),
        roll,
        credentialLists,
        generatedAt: new Date(clock.now()).toISOString(),
      } satisfies StationPackage);
    })

    .get("/voters", async (c) => {
      await liveSession(c, c.req.query("session"));
      const query = (c.req.query("query") ?? "").trim().slice(0, 120);
      if (!query) return c.json([]);
      return c.json(await searchRoll(database, query, LOOKUP_LIMIT));
    })

    .post(
      "/ballots",
      bodyLimit({ maxSize: STATION_BALLOT_BODY_LIMIT, onError: () => fail(413, messages.bodyTooLarge) }),
      jsonBody(sealedStationBallotSchema),
      async (c) => {
        // A device's token delivers the ballots its own session sealed, never another session's.
        if (c.var.stationSessionId && c.req.valid("json").sessionId !== c.var.stationSessionId) fail(403, messages.stationSessionEnded);
        const result = await deliverStationBallot(deps, {
          sealed: c.req.valid("json"),
          idempotencyKey: c.req.header("idempotency-key")?.trim(),
          officerId: c.var.user.id,
          now: clock.now(),
          graceMs: deps.config.voteGraceMs,
        });
        if (result.kind === "refused") {
          // An envelope that can never open is the one refusal a device lets go: it is audited, as every refusal is.
          if (result.final) await auditUnreadable(deps, c, c.req.valid("json").sessionId, result.message);
          fail(result.status, result.message);
        }
        if (result.fresh) await auditStationAnswer(deps, c, result.station, result.answer, result.held);
        return c.json(result.answer);
      },
    );
}
