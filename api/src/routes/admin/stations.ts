/**
 * /admin/stations: create polling stations, assign and remove their officers, revoke them, and
 * the ballots taken per station (results screen). Behind the admin gate: observers read only.
 */
import { Hono } from "hono";
import { assignOfficerSchema, createStationSchema, messages } from "@evoting/shared";
import type { AppEnv, Deps } from "../../deps.ts";
import { fail } from "../../http/errors.ts";
import { jsonBody } from "../../http/validate.ts";
import { audit } from "../../http/audit.ts";
import {
  assignOfficer,
  createStation,
  findStation,
  listStations,
  removeOfficer,
  revokeStation,
  stationTally,
} from "../../services/stations/stations.ts";

export function stationAdminRoutes(deps: Deps) {
  const { database, clock } = deps;

  const liveStation = async (id: string) => {
    const station = await findStation(database, id);
    if (!station) fail(404, messages.stationNotFound);
    if (station.revokedAt !== null) fail(409, messages.stationRevoked);
    return station;
  };

  return new Hono<AppEnv>()
    .get("/stations", async (c) => c.json(await listStations(database)))

    .get("/stations/ballots", async (c) => c.json(await stationTally(database)))

    .post("/stations", ...jsonBody(createStationSchema), async (c) => {
      const { name } = c.req.valid("json");
      const id = await createStation(database, name, clock.now());
      await audit(deps, c, { action: "station.create", target: `station:${id} "${name}"`, summary: `Created polling station "${name}"` });
      const station = (await listStations(database)).find((s) => s._id === id);
      return c.json({ ...station, message: messages.createStationSuccess }, 201);
    })

    .post("/stations/:id/officers", ...jsonBody(assignOfficerSchema), async (c) => {
      const station = await liveStation(c.req.param("id"));
      const result = await assignOfficer(database, station.id, c.req.valid("json").matricNumber, clock.now());
      if (result === "no-user") fail(404, messages.userNotFound);
      if (result === "not-staff") fail(400, messages.stationStaffOnly);
      const { officer } = result;
      await audit(deps, c, {
        action: "station.officer.assign",
        target: `station:${station.id} "${station.name}"`,
        summary: `Assigned ${officer.name} (${officer.matricNumber}, ${officer.role}) to polling station "${station.name}"`,
      });
      return c.json({ ...officer, message: messages.assignOfficerSuccess }, 201);
    })

    .delete("/stations/:id/officers/:userId", async (c) => {
      const station = await findStation(database, c.req.param("id"));
      if (!station) fail(404, messages.stationNotFound);
      const userId = c.req.param("userId");
      if (!(await removeOfficer(database, station.id, userId, clock.now()))) fail(404, messages.userNotFound);
      await audit(deps, c, {
        action: "station.officer.remove",
        target: `station:${station.id} "${station.name}"`,
        summary: `Removed officer user:${userId} from polling station "${station.name}"`,
      });
      return c.body(null, 204);
    })

    .post("/stations/:id/revoke", async (c) => {
      const station = await liveStation(c.req.param("id"));
      await revokeStation(database, station.id, clock.now());
      await audit(deps, c, {
        action: "station.revoke",
        target: `station:${station.id} "${station.name}"`,
        summary: `Revoked polling station "${station.name}": its devices' ballots are refused from now on`,
      });
      return c.json({ message: messages.revokeStationSuccess });
    });
}
