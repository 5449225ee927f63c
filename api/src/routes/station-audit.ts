/**
 * The audit entries of station ballots, for a request (services take no Hono context): each
 * settled ballot and each refusal (voter and position, never a choice), named by station.
 */
import type { Context } from "hono";
import type { StationBallotAnswer } from "@evoting/shared";
import type { AppEnv, Deps } from "../deps.ts";
import { audit } from "../http/audit.ts";
import { stationTarget } from "../services/stations/station-ballots.ts";
import { findStation, findStationSession } from "../services/stations/stations.ts";

/** A settled ballot in the audit log: how many positions counted, and each refusal (voter and position, never a choice). */
export async function auditStationAnswer(deps: Deps, c: Context<AppEnv>, station: { id: string; name: string }, answer: StationBallotAnswer, held = false) {
  const counted = answer.outcomes.filter((o) => o.counted).length;
  const target = stationTarget(station);
  if (held) {
    await audit(deps, c, {
      action: "station.held",
      target,
      summary: `Ballot from a device of polling station "${station.name}" reported lost, held for the election committee (${answer.outcomes.length} positions)`,
    });
    return;
  }
  const who = answer.voter.matricNumber ? `${answer.voter.name} (${answer.voter.matricNumber})` : "a voter not on the roll";
  await audit(deps, c, {
    action: "station.ballot",
    target,
    summary: `Ballot taken at polling station "${station.name}": ${counted} of ${answer.outcomes.length} positions counted`,
  });
  for (const o of answer.outcomes.filter((x) => !x.counted)) {
    await audit(deps, c, {
      action: "station.refusal",
      target,
      summary: `Refused at polling station "${station.name}": ${who}, ${o.positionTitle || o.positionId}: ${o.message}`,
    });
  }
  if (counted > 0) deps.hub.resultsChanged();
}

/** An envelope no key opens: nothing in it can be read, so the entry says where it claimed to come from. */
export async function auditUnreadable(deps: Deps, c: Context<AppEnv>, sessionId: string, message: string) {
  const session = await findStationSession(deps.database, sessionId);
  const station = session ? await findStation(deps.database, session.stationId) : null;
  await audit(deps, c, {
    action: "station.refusal",
    target: station ? stationTarget(station) : "station:unknown",
    summary: `Refused a station ballot${station ? ` from polling station "${station.name}"` : ""}: ${message}`,
  });
}
