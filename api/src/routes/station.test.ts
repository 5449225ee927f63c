/**
 * Polling stations through HTTP on a real database with a fake clock: station tokens (revoked
 * station, wrong officer, officer signed out, past the grace period), first-wins against a
 * phone vote, and exactly-once replay of a station ballot.
 */
import { createCipheriv, randomBytes, randomUUID } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { STATION_BALLOT_BLOCK, messages, type StationBallotAnswer, type Position, type StationChoice, type StationPackage, type StationSessionInfo } from "@evoting/shared";
import { createTestApp, type TestApp } from "../test/harness.ts";

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
  const res = await t.request("/station/sessions", { method: "POST", token, json: { stationId } });
  expect(res.status).toBe(201);
  return (await res.json()) as StationSessionInfo;
}

/** Seals a ballot exactly as the device does (AES-256-GCM, session id as associated data, padded). */
function seal(session: StationSessionInfo, voterId: string, choices: StationChoice[], castAt = t.clock.now()) {
  const ballotId = randomUUID();
  const body = { v: 1, ballotId, voterId, castAt, choices, pad: "" };
  const size = JSON.stringify(body).length;
  body.pad = "x".repeat(Math.ceil(size / STATION_BALLOT_BLOCK) * STATION_BALLOT_BLOCK - size);
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", Buffer.from(session.key, "base64url"), iv);
  cipher.setAAD(Buffer.from(session.sessionId));
  const data = Buffer.concat([cipher.update(JSON.stringify(body)), cipher.final(), cipher.getAuthTag()]);
  return { ballotId, sealed: { sessionId: session.sessionId, iv: iv.toString("base64url"), data: data.toString("base64url") } };
}

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
    expect((await t.request("/station/sessions", { method: "POST", token: officer.token, json: { stationId } })).status).toBe(403);
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

describe("station ballots", () => {
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

  it("refuses every ballot of a revoked station not delivered yet, and stores nothing", async () => {
    const s = await setUp();
    const ballot = seal(s.session, s.voterId, [s.choice]);
    const voter2 = await t.createVoter(admin);
    const delivered = seal(s.session, await voterId(voter2.matricNumber), [s.choice]);
    const first = await (await deliver(s.officer.token, delivered)).json();
    t.clock.advance(1000);
    expect((await t.request(`/admin/stations/${s.stationId}/revoke`, { method: "POST", token: admin })).status).toBe(200);
    const res = await deliver(s.officer.token, ballot);
    expect(res.status).toBe(403);
    expect(((await res.json()) as { message: string }).message).toBe(messages.stationRevoked);
    expect(await count("SELECT COUNT(*) AS n FROM participations")).toBe(1);
    // The one delivered before the revocation still answers as it did (its answer was lost, say).
    expect(await (await deliver(s.officer.token, delivered)).json()).toEqual(first);
    expect((await t.request(`/station/package?session=${s.session.sessionId}`, { token: s.officer.token })).status).toBe(403);
  });

  it("refuses a ballot delivered by an officer of another station, and one forged or re-keyed", async () => {
    const s = await setUp();
    const other = await createStaff("officer");
    const otherStation = await createStation("Science Block");
    await assign(otherStation, other.matricNumber);
    const ballot = seal(s.session, s.voterId, [s.choice]);
    expect((await deliver(other.token, ballot)).status).toBe(403);
    const forged = { ...ballot, sealed: { ...ballot.sealed, data: ballot.sealed.data.slice(0, -4) + "AAAA" } };
    expect((await deliver(s.officer.token, forged)).status).toBe(400);
    expect((await deliver(s.officer.token, ballot, randomUUID())).status).toBe(400);
    expect(await count("SELECT COUNT(*) AS n FROM participations")).toBe(0);
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
    expect(late.status).toBe(403);
    expect(((await late.json()) as { message: string }).message).toBe(messages.stationSessionInvalid);
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
