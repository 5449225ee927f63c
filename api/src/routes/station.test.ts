/**
 * Polling stations through HTTP on a real database with a fake clock: station tokens (revoked
 * station, wrong officer, officer signed out, past the grace period), first-wins against a
 * phone vote, and exactly-once replay of a station ballot.
 */
import { createHash, randomUUID } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { STATION_EXPORT_KIND, messages, type StationBallotAnswer, type StationDevice, type Position, type StationChoice, type StationPackage, type StationSessionInfo } from "@evoting/shared";
import { createTestApp, type TestApp } from "../test/harness.ts";
import { sealStationBallot } from "../test/station-device.ts";
import { verifiableMessages } from "../services/belenios/verifiable.ts";

let t: TestApp;
let admin: string;
let seq = 0;

beforeEach(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
});
afterEach(async () => t.close());

async function createStaff(role: "officer" | "observer" | "admin") {
  const matricNumber = `2019/5570${String(900 + ++seq)}`;
  const res = await t.request("/admin/users", {
    method: "POST",
    token: admin,
    json: { name: `${role} ${seq}`, matricNumber, role, password: "officer-secret" },
  });
  expect(res.status).toBe(201);
  const { token, user } = await t.login(matricNumber, { password: "officer-secret" });
  return { matricNumber, token, id: user._id };
}

async function createStation(name = "Library Hall 1") {
  const res = await t.request("/admin/stations", { method: "POST", token: admin, json: { name } });
  expect(res.status).toBe(201);
  return ((await res.json()) as { _id: string })._id;
}

const assign = (stationId: string, matricNumber: string) =>
  t.request(`/admin/stations/${stationId}/officers`, { method: "POST", token: admin, json: { matricNumber } });

async function openSession(token: string, stationId: string) {
  const res = await t.request("/station/sessions", { method: "POST", token, json: { stationId, password: "officer-secret" } });
  expect(res.status).toBe(201);
  return (await res.json()) as StationSessionInfo;
}

const seal = (session: StationSessionInfo, voterId: string, choices: StationChoice[], castAt = t.clock.now()) => sealStationBallot(session, voterId, choices, castAt);

const deliver = (token: string, ballot: ReturnType<typeof seal>, key = ballot.ballotId) =>
  t.request("/station/ballots", { method: "POST", token, json: ballot.sealed, headers: { "idempotency-key": key } });

const count = async (sql: string, args: string[] = []) => Number((await t.database.client.execute({ sql, args })).rows[0].n);
const voterId = async (matricNumber: string) =>
  String((await t.database.client.execute({ sql: "SELECT id FROM users WHERE matric_number = ?", args: [matricNumber] })).rows[0].id);

/** An open election, a station with one officer signed in on a device, and one voter. */
async function setUp() {
  const { position, candidates } = await t.openElection(admin);
  const stationId = await createStation();
  const officer = await createStaff("officer");
  expect((await assign(stationId, officer.matricNumber)).status).toBe(201);
  const session = await openSession(officer.token, stationId);
  // The device now holds its station token: the sign-in token that opened the station is revoked.
  officer.token = session.token;
  const voter = await t.createVoter(admin);
  const choice: StationChoice = { positionId: position._id, kind: "candidate", candidateId: candidates[0]._id };
  return { position, candidates, stationId, officer, session, voter, voterId: await voterId(voter.matricNumber), choice };
}

describe("setting a station up", () => {
  it("assigns staff only, and officers reach the station routes but not the Admin Panel", async () => {
    const stationId = await createStation();
    const voter = await t.createVoter(admin);
    expect((await assign(stationId, voter.matricNumber)).status).toBe(400);
    const observer = await createStaff("observer");
    expect((await assign(stationId, observer.matricNumber)).status).toBe(201);
    expect((await t.request("/admin/stations", { method: "POST", token: observer.token, json: { name: "X" } })).status).toBe(403);
    const officer = await createStaff("officer");
    expect((await t.request("/admin/stations", { token: officer.token })).status).toBe(403);
    expect((await t.request("/station/mine", { token: voter.token })).status).toBe(403);
    expect((await t.request("/station/sessions", { method: "POST", token: officer.token, json: { stationId, password: "officer-secret" } })).status).toBe(403);
    expect((await t.request("/admin/stations", { method: "POST", token: admin, json: { name: " " } })).status).toBe(400);
  });

  it("hands the device a package with the roll but no date of birth or hash of one", async () => {
    const { session, voter } = await setUp();
    const officer = await createStaffAt(session);
    const res = await t.request(`/station/package?session=${session.sessionId}`, { token: officer.token });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toContain(voter.matricNumber);
    expect(text).not.toMatch(/dob|dateOfBirth|password|hash|20020515/i);
    const pkg = JSON.parse(text) as { roll: { matricNumber: string; voted: string[] }[]; positions: unknown[]; ballotOrderSeed: string };
    expect(pkg.positions).toHaveLength(1);
    // The seed for 'random' ballot order is the same in every package (a voter's order never changes).
    expect(pkg.ballotOrderSeed).toMatch(/^[0-9a-f]{64}$/);
    const again = (await (await t.request(`/station/package?session=${session.sessionId}`, { token: officer.token })).json()) as typeof pkg;
    expect(again.ballotOrderSeed).toBe(pkg.ballotOrderSeed);
    expect(pkg.roll.find((v) => v.matricNumber === voter.matricNumber)?.voted).toEqual([]);

    // Online, the device asks for the voter's current state before starting a ballot.
    const [position] = pkg.positions as { _id: string; candidates: { _id: string }[] }[];
    expect((await t.request("/vote", { method: "POST", token: voter.token, json: { positionId: position._id, candidateId: position.candidates[0]._id } })).status).toBe(201);
    const lookUp = await t.request(`/station/voters?session=${session.sessionId}&query=${encodeURIComponent(voter.matricNumber)}`, { token: officer.token });
    expect(await lookUp.json()).toEqual([expect.objectContaining({ matricNumber: voter.matricNumber, voted: [position._id] })]);
    const byName = await t.request(`/station/voters?session=${session.sessionId}&query=VOTER%20`, { token: officer.token });
    expect(((await byName.json()) as unknown[]).length).toBe(1);
    const wildcard = await t.request(`/station/voters?session=${session.sessionId}&query=%25`, { token: officer.token });
    expect(await wildcard.json()).toEqual([]);
    expect((await t.request(`/station/voters?query=${encodeURIComponent(voter.matricNumber)}`, { token: officer.token })).status).toBe(403);
  });

  /** A second officer of the same station (shift change): may read the package of its live session. */
  async function createStaffAt(session: StationSessionInfo) {
    const officer = await createStaff("officer");
    expect((await assign(session.station._id, officer.matricNumber)).status).toBe(201);
    return officer;
  }
});

describe("the device's token", () => {
  it("replaces the sign-in that opened the station and reaches only that station session's routes", async () => {
    const { position, candidates } = await t.openElection(admin);
    const stationId = await createStation();
    // An admin staffing a station: the device must not carry an admin's token.
    const staff = await createStaff("admin");
    expect((await assign(stationId, staff.matricNumber)).status).toBe(201);
    const session = await openSession(staff.token, stationId);
    expect(session.token).not.toBe(staff.token);
    // The sign-in token that opened the station is revoked.
    expect((await t.request("/auth/profile", { token: staff.token })).status).toBe(401);

    const device = session.token;
    expect((await t.request("/auth/profile", { token: device })).status).toBe(200);
    expect((await t.request("/station/mine", { token: device })).status).toBe(200);
    expect((await t.request(`/station/package?session=${session.sessionId}`, { token: device })).status).toBe(200);
    expect((await t.request(`/station/voters?session=${session.sessionId}&query=2021`, { token: device })).status).toBe(200);
    const refused = [
      ["GET", "/admin/stations"],
      ["GET", "/admin/users"],
      ["GET", "/election"],
      ["GET", "/vote/results"],
      ["GET", "/vote/my-votes"],
      ["GET", "/realtime/token"],
      ["GET", "/chat/messages"],
      ["GET", "/vote/receipts"],
      // Past Elections are open to an officer's own sign-in, never to the device's station token.
      ["GET", "/elections"],
      ["GET", "/elections/1"],
    ] as const;
    for (const [method, path] of refused) {
      const res = await t.request(path, { method, token: device });
      expect([path, res.status]).toEqual([path, 403]);
      expect(((await res.json()) as { message: string }).message).toBe(messages.stationDeviceToken);
    }
    const vote = await t.request("/vote", { method: "POST", token: device, json: { positionId: position._id, candidateId: candidates[0]._id } });
    expect(vote.status).toBe(403);

    // Another device's station session of the same officer is not this token's.
    const other = await t.login(staff.matricNumber, { password: "officer-secret" });
    const second = await openSession(other.token, stationId);
    expect((await t.request(`/station/package?session=${second.sessionId}`, { token: device })).status).toBe(403);

    // Closed, its station routes refuse it; signing out ends it.
    expect((await t.request(`/station/sessions/${session.sessionId}/close`, { method: "POST", token: device, json: { pending: [] } })).status).toBe(204);
    expect((await t.request(`/station/package?session=${session.sessionId}`, { token: device })).status).toBe(403);
    expect((await t.request("/auth/logout", { method: "POST", token: device })).status).toBe(204);
    expect((await t.request("/station/mine", { token: device })).status).toBe(401);
  });
});

describe("station ballots", () => {
  it("a device's token opens no session at another station and delivers no ballot sealed for another session", async () => {
    const s = await setUp();
    const otherStation = await createStation("Library Hall 2");
    const officerB = await createStaff("officer");
    expect((await assign(s.stationId, officerB.matricNumber)).status).toBe(201);
    expect((await assign(otherStation, s.officer.matricNumber)).status).toBe(201);
    const elsewhere = await t.request("/station/sessions", { method: "POST", token: s.session.token, json: { stationId: otherStation, password: "officer-secret" } });
    expect(elsewhere.status).toBe(403);
    const sessionB = await openSession(officerB.token, s.stationId);
    const res = await deliver(sessionB.token, seal(s.session, s.voterId, [s.choice]));
    expect(res.status).toBe(403);
    expect(await count("SELECT COUNT(*) AS n FROM participations")).toBe(0);
  });

  it("leaves a voter taken off the roll out of the package and refuses their ballot", async () => {
    const s = await setUp();
    // Taken off the roll as a new election with a replaced roll leaves a voter who voted before: disabled.
    await t.database.client.execute({ sql: "UPDATE users SET disabled_at = ? WHERE id = ?", args: [t.clock.now(), s.voterId] });
    const pkg = (await (await t.request(`/station/package?session=${s.session.sessionId}`, { token: s.officer.token })).json()) as StationPackage;
    expect(pkg.roll.map((r) => r.matricNumber)).not.toContain(s.voter.matricNumber);
    const res = await deliver(s.officer.token, seal(s.session, s.voterId, [s.choice]));
    expect(res.status).toBe(200);
    expect(((await res.json()) as StationBallotAnswer).outcomes).toEqual([expect.objectContaining({ counted: false, message: messages.stationVoterNotFound })]);
    expect(await count("SELECT COUNT(*) AS n FROM participations")).toBe(0);
  });

  it("counts a ballot once, with the station in the participation only, however often it is replayed", async () => {
    const s = await setUp();
    const ballot = seal(s.session, s.voterId, [s.choice]);
    const first = await deliver(s.officer.token, ballot);
    expect(first.status).toBe(200);
    const answer = (await first.json()) as StationBallotAnswer;
    expect(answer.outcomes).toEqual([{ positionId: s.position._id, positionTitle: "President", counted: true, message: messages.stationBallotCounted }]);
    expect(JSON.stringify(answer)).not.toContain(s.candidates[0]._id);

    const replays = await Promise.all([deliver(s.officer.token, ballot), deliver(s.officer.token, ballot)]);
    for (const r of replays) expect(await r.json()).toEqual(answer);
    expect(await count("SELECT COUNT(*) AS n FROM participations WHERE station_id = ?", [s.stationId])).toBe(1);
    expect(await count("SELECT COUNT(*) AS n FROM participations")).toBe(1);
    // Which station took it is on the participation only: nothing on the ballot side names it.
    for (const table of ["ballots", "pending_ballots"]) {
      const columns = (await t.database.client.execute(`PRAGMA table_info(${table})`)).rows.map((r) => String(r.name));
      expect(columns.length).toBeGreaterThan(0);
      expect(columns.some((name) => name.includes("station"))).toBe(false);
    }
    const tally = await (await t.request("/admin/stations/ballots", { token: admin })).json();
    expect(tally).toMatchObject({ total: 1, stations: [{ _id: s.stationId, ballotsTaken: 1 }] });
    expect(await count("SELECT COUNT(*) AS n FROM audit_log WHERE action = 'station.ballot'")).toBe(1);
  });

  it("first wins: a voter who voted on their phone first is refused at the station, per position, and audited", async () => {
    const s = await setUp();
    const phone = await t.request("/vote", { method: "POST", token: s.voter.token, json: { positionId: s.position._id, candidateId: s.candidates[1]._id } });
    expect(phone.status).toBe(201);
    const res = await deliver(s.officer.token, seal(s.session, s.voterId, [s.choice]));
    expect(res.status).toBe(200);
    const answer = (await res.json()) as StationBallotAnswer;
    expect(answer.voter.matricNumber).toBe(s.voter.matricNumber);
    expect(answer.outcomes).toEqual([{ positionId: s.position._id, positionTitle: "President", counted: false, message: messages.stationVotedElsewhere }]);
    expect(await count("SELECT COUNT(*) AS n FROM participations")).toBe(1);
    expect(await count("SELECT COUNT(*) AS n FROM participations WHERE station_id IS NOT NULL")).toBe(0);
    const refusals = await t.database.client.execute("SELECT summary FROM audit_log WHERE action = 'station.refusal'");
    expect(refusals.rows).toHaveLength(1);
    expect(String(refusals.rows[0].summary)).toContain(s.voter.matricNumber);
    expect(String(refusals.rows[0].summary)).not.toMatch(/Ada|Grace/);
  });

  it("marks a verifiable position in the package and refuses a plain choice for it: only a ballot encrypted with the voter's credential goes in", async () => {
    const s = await setUp();
    const now = t.clock.now();
    const created = await t.request("/admin/positions", {
      method: "POST",
      token: admin,
      json: { title: "Treasurer", verifiable: true, startTime: new Date(now - 60_000).toISOString(), endTime: new Date(now + 3_600_000).toISOString() },
    });
    expect(created.status).toBe(201);
    const treasurer = (await created.json()) as { _id: string };
    const candidate = await t.createCandidate(admin, treasurer._id, "Ngozi");
    const pkg = (await (await t.request(`/station/package?session=${s.session.sessionId}`, { token: s.officer.token })).json()) as StationPackage<Position>;
    expect(pkg.positions.find((p) => p._id === treasurer._id)?.belenios).toMatchObject({ state: "setup" });
    expect(pkg.positions.find((p) => p._id === s.position._id)?.belenios).toBeUndefined();
    const choice: StationChoice = { positionId: treasurer._id, kind: "candidate", candidateId: candidate._id };
    const res = await deliver(s.officer.token, seal(s.session, s.voterId, [s.choice, choice]));
    expect(res.status).toBe(200);
    const answer = (await res.json()) as StationBallotAnswer;
    expect(answer.outcomes).toEqual([
      { positionId: s.position._id, positionTitle: "President", counted: true, message: messages.stationBallotCounted },
      { positionId: treasurer._id, positionTitle: "Treasurer", counted: false, message: verifiableMessages.stationNeedsBallot },
    ]);
    expect(await count("SELECT COUNT(*) AS n FROM participations WHERE position_id = ?", [treasurer._id])).toBe(0);
  });

  it("refuses every ballot of a revoked station not delivered yet, for good: the refusal is stored, answered again and audited", async () => {
    const s = await setUp();
    const ballot = seal(s.session, s.voterId, [s.choice]);
    const voter2 = await t.createVoter(admin);
    const delivered = seal(s.session, await voterId(voter2.matricNumber), [s.choice]);
    const first = await (await deliver(s.officer.token, delivered)).json();
    t.clock.advance(1000);
    expect((await t.request(`/admin/stations/${s.stationId}/revoke`, { method: "POST", token: admin })).status).toBe(200);
    const res = await deliver(s.officer.token, ballot);
    expect(res.status).toBe(200);
    const refusedAnswer = (await res.json()) as StationBallotAnswer;
    expect(refusedAnswer).toEqual({
      ballotId: ballot.ballotId,
      voter: { matricNumber: s.voter.matricNumber, name: expect.any(String) },
      outcomes: [{ positionId: s.position._id, positionTitle: "President", counted: false, message: messages.stationRevoked }],
    });
    expect(await (await deliver(s.officer.token, ballot)).json()).toEqual(refusedAnswer);
    expect(await count("SELECT COUNT(*) AS n FROM participations")).toBe(1);
    const audited = await t.database.client.execute("SELECT target, summary FROM audit_log WHERE action = 'station.refusal'");
    expect(audited.rows).toHaveLength(1);
    expect(String(audited.rows[0].target)).toBe(`station:${s.stationId} "Library Hall 1"`);
    expect(String(audited.rows[0].summary)).toContain(messages.stationRevoked);
    // The one delivered before the revocation still answers as it did (its answer was lost, say).
    expect(await (await deliver(s.officer.token, delivered)).json()).toEqual(first);
    const pkg = await t.request(`/station/package?session=${s.session.sessionId}`, { token: s.officer.token });
    expect(pkg.status).toBe(403);
    expect(((await pkg.json()) as { message: string }).message).toBe(messages.stationSessionEnded);
  });

  it("keeps a ballot undecided when the wrong person delivers it: another station's officer, an admin, the officer once unassigned", async () => {
    const s = await setUp();
    const other = await createStaff("officer");
    const otherStation = await createStation("Science Block");
    await assign(otherStation, other.matricNumber);
    const ballot = seal(s.session, s.voterId, [s.choice]);
    for (const token of [other.token, admin]) {
      const res = await deliver(token, ballot);
      expect(res.status).toBe(403);
      expect(((await res.json()) as { message: string }).message).toBe(messages.stationNotAssigned);
    }
    t.clock.advance(1000);
    expect((await t.request(`/admin/stations/${s.stationId}/officers/${s.officer.id}`, { method: "DELETE", token: admin })).status).toBe(204);
    expect((await deliver(s.officer.token, ballot)).status).toBe(403);
    expect(await count("SELECT COUNT(*) AS n FROM station_ballots")).toBe(0);
    // Nothing was decided: an officer of its station delivers it later, and it counts.
    const relief = await createStaff("officer");
    await assign(s.stationId, relief.matricNumber);
    const res = await deliver(relief.token, ballot);
    expect(res.status).toBe(200);
    expect(((await res.json()) as StationBallotAnswer).outcomes[0].counted).toBe(true);
    expect(await count("SELECT COUNT(*) AS n FROM participations")).toBe(1);
  });

  it("refuses a forged or re-keyed ballot and audits the forged one", async () => {
    const s = await setUp();
    const ballot = seal(s.session, s.voterId, [s.choice]);
    const forged = { ...ballot, sealed: { ...ballot.sealed, data: ballot.sealed.data.slice(0, -4) + "AAAA" } };
    const res = await deliver(s.officer.token, forged);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toBe(messages.stationBallotInvalid);
    expect((await deliver(s.officer.token, ballot, randomUUID())).status).toBe(400);
    expect(await count("SELECT COUNT(*) AS n FROM participations")).toBe(0);
    const audited = await t.database.client.execute("SELECT target, summary FROM audit_log WHERE action = 'station.refusal'");
    expect(audited.rows.map((r) => String(r.target))).toEqual([`station:${s.stationId} "Library Hall 1"`]);
  });

  it("opens a station only with the officer's password again, counted as a sign-in try", async () => {
    const stationId = await createStation();
    const officer = await createStaff("officer");
    await assign(stationId, officer.matricNumber);
    const open = (password?: string) => t.request("/station/sessions", { method: "POST", token: officer.token, json: { stationId, password } });
    expect((await open()).status).toBe(400);
    const wrong = await open("not-it");
    expect(wrong.status).toBe(400);
    expect(((await wrong.json()) as { message: string }).message).toBe(messages.stationPasswordWrong);
    expect(await count("SELECT COUNT(*) AS n FROM station_sessions")).toBe(0);
    expect(await count("SELECT tries AS n FROM signin_tries WHERE account = ?", [officer.matricNumber])).toBe(1);
    const opened = await open("officer-secret");
    expect(opened.status).toBe(201);
    const session = (await opened.json()) as StationSessionInfo;
    const status = await t.request(`/station/sessions/${session.sessionId}`, { token: session.token });
    expect(await status.json()).toEqual({ open: true });
    expect((await t.request(`/station/sessions/${session.sessionId}/close`, { method: "POST", token: session.token, json: { pending: [] } })).status).toBe(204);
    const ended = await t.request(`/station/sessions/${session.sessionId}`, { token: session.token });
    expect(ended.status).toBe(403);
    expect(((await ended.json()) as { message: string }).message).toBe(messages.stationSessionEnded);
  });

  it("finds a voter by any part of the matric number, separators ignored", async () => {
    const s = await setUp();
    const digits = s.voter.matricNumber.replace("/", "");
    for (const query of [digits.slice(4), s.voter.matricNumber.replace("/", "-"), digits, s.voter.matricNumber.slice(-3)]) {
      const res = await t.request(`/station/voters?session=${s.session.sessionId}&query=${encodeURIComponent(query)}`, { token: s.officer.token });
      expect(((await res.json()) as { matricNumber: string }[]).map((v) => v.matricNumber)).toContain(s.voter.matricNumber);
    }
  });

  it("takes a ballot cast while the officer was signed in, not one cast after they signed out", async () => {
    const s = await setUp();
    const before = seal(s.session, s.voterId, [s.choice]);
    t.clock.advance(60_000);
    expect((await t.request("/auth/logout", { method: "POST", token: s.officer.token })).status).toBeLessThan(300);
    t.clock.advance(120_000);
    const after = seal(s.session, s.voterId, [s.choice]);
    const again = await t.login(s.officer.matricNumber, { password: "officer-secret" });
    const late = await deliver(again.token, after);
    expect(late.status).toBe(200);
    expect(((await late.json()) as StationBallotAnswer).outcomes).toEqual([expect.objectContaining({ counted: false, message: messages.stationSessionInvalid })]);
    expect((await deliver(again.token, before)).status).toBe(200);
    expect(await count("SELECT COUNT(*) AS n FROM participations")).toBe(1);
  });

  it("applies the vote page's ballot rules per position: No on an unopposed one, abstain only where allowed, eligibility by groups", async () => {
    const s = await setUp();
    const unopposed = await t.createPosition(admin, "Treasurer", new Date(t.clock.now() - 60_000).toISOString(), new Date(t.clock.now() + 3_600_000).toISOString());
    await t.createCandidate(admin, unopposed._id, "Sole");
    // Yes/No for a lone candidate is an election setting, off by default: with it off, 'No' is refused.
    const early = await t.createVoter(admin);
    const refusedNo = await deliver(s.officer.token, seal(s.session, await voterId(early.matricNumber), [{ positionId: unopposed._id, kind: "no" }]));
    expect(((await refusedNo.json()) as StationBallotAnswer).outcomes[0]).toMatchObject({ counted: false, message: messages.noNeedsUnopposed });
    const settings = (await (await t.request("/election", { token: admin })).json()) as object;
    expect((await t.request("/admin/election", { method: "PUT", token: admin, json: { ...settings, unopposed: "yes-no" } })).status).toBe(200);
    const pkg = (await (await t.request(`/station/package?session=${s.session.sessionId}`, { token: s.officer.token })).json()) as StationPackage<Position>;
    expect(pkg.positions.find((p) => p._id === unopposed._id)?.yesNo).toBe(true);
    const patch = (id: string, json: unknown) => t.request(`/admin/positions/${id}`, { method: "PATCH", token: admin, json });
    expect((await patch(s.position._id, { eligibleGroups: ["300L"] })).status).toBe(200);
    const res = await deliver(
      s.officer.token,
      seal(s.session, s.voterId, [
        s.choice,
        { positionId: unopposed._id, kind: "no" },
      ]),
    );
    const answer = (await res.json()) as StationBallotAnswer;
    expect(answer.outcomes).toEqual([
      expect.objectContaining({ positionId: s.position._id, counted: false, message: messages.notEligible }),
      expect.objectContaining({ positionId: unopposed._id, counted: true }),
    ]);
    const voter2 = await t.createVoter(admin);
    const abstain = await deliver(s.officer.token, seal(s.session, await voterId(voter2.matricNumber), [{ positionId: unopposed._id, kind: "abstain" }]));
    expect(((await abstain.json()) as StationBallotAnswer).outcomes[0]).toMatchObject({ counted: false, message: messages.abstainNotAllowed });
    expect(await count("SELECT COUNT(*) AS n FROM participations")).toBe(1);
  });

  it("applies the offline grace rule: cast before the close, delivered within the grace period only", async () => {
    const s = await setUp();
    const voter2 = await t.createVoter(admin);
    const castBeforeClose = t.clock.now() + 3_599_000; // one second before the close
    const inGrace = seal(s.session, s.voterId, [s.choice], castBeforeClose);
    const pastGrace = seal(s.session, await voterId(voter2.matricNumber), [s.choice], castBeforeClose);
    t.clock.advance(3_600_000 + 9 * 60_000); // nine minutes after the close (grace: ten)
    const ok = (await (await deliver(s.officer.token, inGrace)).json()) as StationBallotAnswer;
    expect(ok.outcomes[0].counted).toBe(true);
    t.clock.advance(2 * 60_000);
    const late = (await (await deliver(s.officer.token, pastGrace)).json()) as StationBallotAnswer;
    expect(late.outcomes[0]).toMatchObject({ counted: false, message: messages.votingEnded });
    expect(await count("SELECT COUNT(*) AS n FROM participations")).toBe(1);
  });
});

describe("ballot methods at a station", () => {
  it("counts a ranked and a referendum choice from the sealed queue, and refuses a bad ranking as the vote page does", async () => {
    const { session, voter, voterId: id, officer } = await setUp();
    const now = t.clock.now();
    const window = { startTime: new Date(now - 3_600_000).toISOString(), endTime: new Date(now + 3_600_000).toISOString() };
    const make = async (json: Record<string, unknown>) =>
      (await (await t.request("/admin/positions", { method: "POST", token: admin, json: { ...window, ...json } })).json()) as { _id: string };
    const ranked = await make({ title: "Chair", method: "ranked", seats: 1 });
    const ids = [];
    for (const name of ["Ada", "Grace", "Linus"]) ids.push((await t.createCandidate(admin, ranked._id, name))._id);
    const referendum = await make({ title: "Constitution", method: "referendum", question: "Adopt it?" });

    const bad = seal(session, id, [{ positionId: ranked._id, kind: "ranked", candidateIds: [ids[0], ids[0]] }]);
    const refused = await (await deliver(officer.token, bad)).json();
    expect(refused.outcomes).toEqual([expect.objectContaining({ counted: false, message: messages.duplicateMarks })]);

    const good = seal(session, id, [
      { positionId: ranked._id, kind: "ranked", candidateIds: [ids[2], ids[0]] },
      { positionId: referendum._id, kind: "yes" },
    ]);
    const answer = await (await deliver(officer.token, good)).json();
    expect(answer.outcomes.map((o: { counted: boolean }) => o.counted)).toEqual([true, true]);
    const mine = (await (await t.request("/vote/my-votes", { token: voter.token })).json()) as Record<string, unknown>[];
    expect(mine).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ positionId: ranked._id, candidateIds: [ids[2], ids[0]], candidateNames: ["Linus", "Ada"] }),
        expect.objectContaining({ positionId: referendum._id, choice: "yes" }),
      ]),
    );
  });
});

describe("a station's ballot file", () => {
  /** The file the device writes (pwa/src/station/station-export.ts): sealed ballots and a digest over them. */
  const fileOf = (stationId: string, ballots: ReturnType<typeof seal>[], labels: { matricNumber: string; name: string }[]) => {
    const list = ballots.map((b, i) => ({ ballotId: b.ballotId, sealed: b.sealed, voter: labels[i] }));
    return {
      kind: STATION_EXPORT_KIND,
      v: 1,
      station: { _id: stationId, name: "Library Hall 1" },
      exportedAt: new Date(t.clock.now()).toISOString(),
      ballots: list,
      sha256: createHash("sha256").update(JSON.stringify(list), "utf8").digest("hex"),
    };
  };
  const importFile = (json: unknown, token = admin) => t.request("/admin/stations/import", { method: "POST", token, json });

  it("is imported by an admin once: the same checks and refusals as a delivery; a second import counts nothing", async () => {
    const s = await setUp();
    const voter2 = await t.createVoter(admin);
    const phone = await t.request("/vote", { method: "POST", token: voter2.token, json: { positionId: s.position._id, candidateId: s.candidates[1]._id } });
    expect(phone.status).toBe(201);
    const ballots = [seal(s.session, s.voterId, [s.choice]), seal(s.session, await voterId(voter2.matricNumber), [s.choice])];
    // Past the close and its grace: the file is how ballots cast in time still reach the count.
    t.clock.advance(3_600_000 + 60 * 60_000);
    const file = fileOf(s.stationId, ballots, [s.voter, voter2].map((v) => ({ matricNumber: v.matricNumber, name: "label" })));
    const observer = await createStaff("observer");
    expect((await importFile(file, observer.token)).status).toBe(403);
    const first = await importFile(file);
    expect(first.status).toBe(200);
    expect(await first.json()).toMatchObject({ counted: 1, refused: 1, alreadyIn: 0, unreadable: 0 });
    const again = await importFile(file);
    expect(await again.json()).toMatchObject({ counted: 0, refused: 0, alreadyIn: 2, unreadable: 0 });
    expect(await count("SELECT COUNT(*) AS n FROM participations WHERE station_id = ?", [s.stationId])).toBe(1);
    expect(await count("SELECT ballots_taken AS n FROM stations WHERE id = ?", [s.stationId])).toBe(1);
    const audited = (await t.database.client.execute("SELECT action, target FROM audit_log WHERE action LIKE 'station.%' ORDER BY seq")).rows.map((r) => String(r.action));
    expect(audited.filter((a) => a === "station.import")).toHaveLength(2);
    expect(audited.filter((a) => a === "station.refusal")).toHaveLength(1);
    // The device delivering the same ballot later is answered as the import was.
    expect(((await (await deliver(s.officer.token, ballots[0])).json()) as StationBallotAnswer).outcomes[0].counted).toBe(true);
    expect(await count("SELECT COUNT(*) AS n FROM participations")).toBe(2);
  });

  it("is refused whole when edited after export, and a forged envelope inside counts nothing", async () => {
    const s = await setUp();
    const ballot = seal(s.session, s.voterId, [s.choice]);
    const file = fileOf(s.stationId, [ballot], [{ matricNumber: s.voter.matricNumber, name: "label" }]);
    const edited = { ...file, ballots: [{ ...file.ballots[0], voter: { matricNumber: "2020/5570999", name: "Someone else" } }] };
    const res = await importFile(edited);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toBe(messages.stationFileTampered);
    expect(await count("SELECT COUNT(*) AS n FROM station_ballots")).toBe(0);
    expect((await importFile({ kind: "something else" })).status).toBe(400);
    // Re-sealed by someone without the key, with a digest to match: each envelope still proves itself.
    const forged = fileOf(s.stationId, [{ ...ballot, sealed: { ...ballot.sealed, data: ballot.sealed.data.slice(0, -4) + "AAAA" } }], [{ matricNumber: s.voter.matricNumber, name: "label" }]);
    expect(await (await importFile(forged)).json()).toMatchObject({ counted: 0, unreadable: 1 });
    expect(await count("SELECT COUNT(*) AS n FROM participations")).toBe(0);
  });
});

describe("a station device reported lost", () => {
  it("holds its ballots arriving after, for the committee, who sees counts per position and accepts them as a batch", async () => {
    const s = await setUp();
    const before = seal(s.session, s.voterId, [s.choice]);
    expect(((await (await deliver(s.officer.token, before)).json()) as StationBallotAnswer).outcomes[0].counted).toBe(true);
    const voters = [await t.createVoter(admin), await t.createVoter(admin)];
    const queued = await Promise.all(voters.map(async (v) => seal(s.session, await voterId(v.matricNumber), [s.choice])));
    t.clock.advance(60_000);
    const devices = (await (await t.request("/admin/stations/devices", { token: admin })).json()) as StationDevice[];
    expect(devices).toEqual([expect.objectContaining({ _id: s.session.sessionId, lostAt: null, held: { total: 0, positions: [] } })]);
    expect((await t.request(`/admin/stations/devices/${s.session.sessionId}/lost`, { method: "POST", token: admin })).status).toBe(200);
    expect((await t.request(`/admin/stations/devices/${s.session.sessionId}/lost`, { method: "POST", token: admin })).status).toBe(409);

    // What the device (or whoever has it) sends from now on is held, not counted; a replay is held once.
    for (const ballot of [...queued, queued[0]]) {
      const res = await deliver(s.officer.token, ballot);
      expect(res.status).toBe(200);
      expect(((await res.json()) as StationBallotAnswer).outcomes).toEqual([expect.objectContaining({ counted: false, message: messages.stationBallotHeld })]);
    }
    expect(await count("SELECT COUNT(*) AS n FROM participations")).toBe(1);
    // Delivered before the report, still answered as then.
    expect(((await (await deliver(s.officer.token, before)).json()) as StationBallotAnswer).outcomes[0].counted).toBe(true);
    const held = (await (await t.request("/admin/stations/devices", { token: admin })).json()) as StationDevice[];
    expect(held[0]).toMatchObject({ lostAt: expect.any(String), closedAt: expect.any(String), held: { total: 2, positions: [{ positionId: s.position._id, positionTitle: "President", ballots: 2 }] } });
    expect(JSON.stringify(held)).not.toContain(s.candidates[0]._id);
    // Held as sealed as it came: no voter, no choice, no time in the clear, every row the same length.
    const rows = (await t.database.client.execute("SELECT * FROM disputed_ballots")).rows.map((r) => JSON.stringify(r));
    const ids = await Promise.all(voters.map((v) => voterId(v.matricNumber)));
    for (const row of rows) for (const secret of [...ids, s.candidates[0]._id, String(t.clock.now()).slice(0, 8)]) expect(row).not.toContain(secret);
    expect(new Set(rows.map((r) => r.length - (JSON.parse(r) as { id: string }).id.length)).size).toBe(1);

    const observer = await createStaff("observer");
    expect((await t.request(`/admin/stations/devices/${s.session.sessionId}/held`, { method: "POST", token: observer.token, json: { decision: "accept" } })).status).toBe(403);
    const accepted = await t.request(`/admin/stations/devices/${s.session.sessionId}/held`, { method: "POST", token: admin, json: { decision: "accept" } });
    expect(accepted.status).toBe(200);
    expect(await count("SELECT COUNT(*) AS n FROM participations")).toBe(3);
    expect(await count("SELECT COUNT(*) AS n FROM disputed_ballots")).toBe(0);
    // Decided once: a second decision finds nothing, a later delivery answers the accepted outcome.
    await t.request(`/admin/stations/devices/${s.session.sessionId}/held`, { method: "POST", token: admin, json: { decision: "reject" } });
    expect(((await (await deliver(s.officer.token, queued[1])).json()) as StationBallotAnswer).outcomes[0].counted).toBe(true);
    expect(await count("SELECT COUNT(*) AS n FROM participations")).toBe(3);
    const actions = (await t.database.client.execute("SELECT action FROM audit_log WHERE action LIKE 'station.%'")).rows.map((r) => String(r.action));
    expect(actions.filter((a) => a === "station.held")).toHaveLength(2);
    expect(actions).toEqual(expect.arrayContaining(["station.device.lost", "station.held.accept", "station.held.reject"]));
  });

  it("counts nothing of a rejected batch, and the device's ballots stay refused", async () => {
    const s = await setUp();
    const ballot = seal(s.session, s.voterId, [s.choice]);
    t.clock.advance(1_000);
    await t.request(`/admin/stations/devices/${s.session.sessionId}/lost`, { method: "POST", token: admin });
    await deliver(s.officer.token, ballot);
    const rejected = await t.request(`/admin/stations/devices/${s.session.sessionId}/held`, { method: "POST", token: admin, json: { decision: "reject" } });
    expect(((await rejected.json()) as { message: string }).message).toBe("1 held ballots rejected");
    expect(await count("SELECT COUNT(*) AS n FROM participations")).toBe(0);
    expect(((await (await deliver(s.officer.token, ballot)).json()) as StationBallotAnswer).outcomes).toEqual([expect.objectContaining({ counted: false, message: messages.stationBallotRejected })]);
    // The voter may still vote elsewhere: nothing of theirs counted.
    expect((await t.request("/vote", { method: "POST", token: s.voter.token, json: { positionId: s.position._id, candidateId: s.candidates[1]._id } })).status).toBe(201);
  });
});

describe("a station device reported lost, once the results are declared", () => {
  const HOUR = 3_600_000;
  const declare = () => t.request("/admin/election/declare", { method: "POST", token: admin });

  /** A lost device holding one ballot cast before the report, and voting closed for good (past the grace). */
  async function lostAndClosed() {
    const settings = await (await t.request("/election", { token: admin })).json();
    const window = { startTime: new Date(t.clock.now() - HOUR).toISOString(), endTime: new Date(t.clock.now() + HOUR).toISOString() };
    expect((await t.request("/admin/election", { method: "PUT", token: admin, json: { ...settings, ...window } })).status).toBe(200);
    const s = await setUp();
    const ballot = seal(s.session, s.voterId, [s.choice]);
    t.clock.advance(1_000);
    expect((await t.request(`/admin/stations/devices/${s.session.sessionId}/lost`, { method: "POST", token: admin })).status).toBe(200);
    t.clock.advance(HOUR + t.deps.config.voteGraceMs + 1);
    return { ...s, ballot };
  }

  it("refuses its ballot with 409 and stores nothing: the declared result is final, and the committee is left nothing it cannot decide", async () => {
    const s = await lostAndClosed();
    expect((await declare()).status).toBe(200);
    for (let i = 0; i < 2; i++) {
      const res = await deliver(s.officer.token, s.ballot);
      expect(res.status).toBe(409);
      expect(((await res.json()) as { message: string }).message).toBe(messages.stationBallotHeldTooLate);
    }
    for (const table of ["disputed_ballots", "station_ballots", "participations", "pending_ballots"]) expect(await count(`SELECT COUNT(*) AS n FROM ${table}`)).toBe(0);
    const devices = (await (await t.request("/admin/stations/devices", { token: admin })).json()) as StationDevice[];
    expect(devices).toEqual([expect.objectContaining({ _id: s.session.sessionId, lostAt: expect.any(String), held: { total: 0, positions: [] } })]);
    expect(await count("SELECT COUNT(*) AS n FROM audit_log WHERE action = 'station.held'")).toBe(0);
  });

  it("a ballot held while the results are being declared stops the declaration: the committee decides it first", async () => {
    const s = await lostAndClosed();
    // The ballot arrives after the declaration counted no held ballot, before its archive is written.
    const { integrity } = t.deps;
    const run = integrity.run.bind(integrity);
    let arrived: Response | null = null;
    integrity.run = async (trigger) => {
      arrived ??= await deliver(s.officer.token, s.ballot);
      return run(trigger);
    };
    const raced = await declare();
    expect(raced.status).toBe(409);
    expect(((await raced.json()) as { message: string }).message).toBe(messages.declareHeldBallots);
    expect(arrived!.status).toBe(200);
    expect(((await arrived!.json()) as StationBallotAnswer).outcomes).toEqual([expect.objectContaining({ counted: false, message: messages.stationBallotHeld })]);
    expect(await count("SELECT COUNT(*) AS n FROM elections WHERE state = 'declared'")).toBe(0);

    const decided = await t.request(`/admin/stations/devices/${s.session.sessionId}/held`, { method: "POST", token: admin, json: { decision: "reject" } });
    expect(decided.status).toBe(200);
    expect((await declare()).status).toBe(200);
    expect(await count("SELECT COUNT(*) AS n FROM disputed_ballots")).toBe(0);
    // Decided before the declaration: its answer stands.
    expect(((await (await deliver(s.officer.token, s.ballot)).json()) as StationBallotAnswer).outcomes).toEqual([expect.objectContaining({ message: messages.stationBallotRejected })]);
  });
});

describe("a station session its device closed", () => {
  it("counts afterwards only the ballots the device said it still held: its key makes no new ballot that counts", async () => {
    const s = await setUp();
    const voter2 = await t.createVoter(admin);
    const held = seal(s.session, s.voterId, [s.choice]);
    // Made with the same key, dated inside the session, but not on the device when it closed.
    const forged = seal(s.session, await voterId(voter2.matricNumber), [s.choice]);
    t.clock.advance(60_000);
    const closed = await t.request(`/station/sessions/${s.session.sessionId}/close`, { method: "POST", token: s.officer.token, json: { pending: [held.ballotId] } });
    expect(closed.status).toBe(204);
    expect(((await (await deliver(s.officer.token, held)).json()) as StationBallotAnswer).outcomes[0].counted).toBe(true);
    const late = (await (await deliver(s.officer.token, forged)).json()) as StationBallotAnswer;
    expect(late.outcomes).toEqual([expect.objectContaining({ counted: false, message: messages.stationSessionInvalid })]);
    expect(await count("SELECT COUNT(*) AS n FROM participations")).toBe(1);
  });
});
