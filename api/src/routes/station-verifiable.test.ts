/**
 * A verifiable position at a polling station, through HTTP on a real database: the device takes
 * the election from its package, encrypts the voter's ballot with the credential typed at the
 * booth (the shared Belenios code, as the station's worker runs it) and seals it with the
 * station's ordinary choices; the delivery counts it once, on the public board, and
 * `belenios-tool election verify` accepts the archive during voting and after the count. The
 * refusals a voter's own device gets (DESIGN.md section 9) come back as the station's outcomes,
 * with nothing stored.
 */
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  ballotTracker,
  credentialEntry,
  credentialListHas,
  electionFingerprint,
  generateBallot,
  generateCredential,
  parseElection,
  publicCredential,
  serializeElection,
} from "@evoting/shared/belenios";
import { messages, STATION_EXPORT_KIND, type Position, type StationBallotAnswer, type StationChoice, type StationPackage, type StationSessionInfo } from "@evoting/shared";
import { toolVerifies } from "../../../shared/src/belenios/belenios-tool.test-support.ts";
import { createTestApp, type TestApp } from "../test/harness.ts";
import { sealStationBallot } from "../test/station-device.ts";
import { verifiableMessages } from "../services/belenios/verifiable.ts";

let t: TestApp;
let admin: string;
beforeEach(async () => {
  t = await createTestApp({ ballotBatch: 1 });
  admin = await t.adminToken();
});
afterEach(async () => t.close());

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const HOUR = 3_600_000;
const OFFICER_PASSWORD = "officer-secret";

const count = async (sql: string, args: string[] = []) => Number((await t.database.client.execute({ sql, args })).rows[0].n);
const records = () => count("SELECT count(*) AS n FROM belenios_records");
const board = async (positionId: string) => (await (await t.request(`/positions/${positionId}/board`)).json()) as { fingerprint: string; trackers: string[] };

async function toolVerifiesArchive(positionId: string, uuid: string) {
  const res = await t.request(`/positions/${positionId}/archive.bel`);
  expect(res.status).toBe(200);
  const dir = mkdtempSync(join(tmpdir(), "station-belenios-"));
  dirs.push(dir);
  writeFileSync(join(dir, `${uuid}.bel`), new Uint8Array(await res.arrayBuffer()));
  const verdict = toolVerifies(dir);
  expect(verdict.output).toContain("all checks passed");
  expect(verdict.ok).toBe(true);
}

/**
 * An ordinary position (President) and a verifiable one (Treasurer, locked, the server its only
 * trustee, credentials for `credentials`), a station with an officer signed in on a device, and
 * that device's package.
 */
async function setUp(credentials: string[]) {
  const { position: president, candidates } = await t.openElection(admin);
  const now = t.clock.now();
  const created = await t.request("/admin/positions", {
    method: "POST",
    token: admin,
    json: { title: "Treasurer", verifiable: true, startTime: new Date(now + 60_000).toISOString(), endTime: new Date(now + HOUR).toISOString() },
  });
  expect(created.status).toBe(201);
  const treasurer = (await created.json()) as { _id: string; belenios: { uuid: string } };
  for (const name of ["Ngozi", "Bola"]) await t.createCandidate(admin, treasurer._id, name);
  expect((await t.request("/admin/trustees", { method: "POST", token: admin, json: { name: "Server", server: true } })).status).toBe(201);
  const publicCredentials = credentials.map((c) => publicCredential(c, treasurer.belenios.uuid));
  expect((await t.request(`/admin/positions/${treasurer._id}/credentials`, { method: "PUT", token: admin, json: { publicCredentials } })).status).toBe(200);
  expect((await t.request(`/admin/positions/${treasurer._id}/lock`, { method: "POST", token: admin })).status).toBe(200);
  t.clock.advance(120_000);

  const station = (await (await t.request("/admin/stations", { method: "POST", token: admin, json: { name: "Library Hall 1" } })).json()) as { _id: string };
  const officer = { matricNumber: "2019/5570901" };
  expect((await t.request("/admin/users", { method: "POST", token: admin, json: { name: "Officer", ...officer, role: "officer", password: OFFICER_PASSWORD } })).status).toBe(201);
  expect((await t.request(`/admin/stations/${station._id}/officers`, { method: "POST", token: admin, json: officer })).status).toBe(201);
  const { token } = await t.login(officer.matricNumber, { password: OFFICER_PASSWORD });
  const opened = await t.request("/station/sessions", { method: "POST", token, json: { stationId: station._id, password: OFFICER_PASSWORD } });
  expect(opened.status).toBe(201);
  const session = (await opened.json()) as StationSessionInfo;
  const pkg = (await (await t.request(`/station/package?session=${session.sessionId}`, { token: session.token })).json()) as StationPackage<Position & { belenios?: { uuid: string; state: string; election?: string; answerIds?: string[] } }>;
  return { president, candidates, treasurer, uuid: treasurer.belenios.uuid, stationId: station._id, session, pkg, publicCredentials };
}

type Setup = Awaited<ReturnType<typeof setUp>>;

async function voterOnRoll() {
  const voter = await t.createVoter(admin);
  const id = String((await t.database.client.execute({ sql: "SELECT id FROM users WHERE matric_number = ?", args: [voter.matricNumber] })).rows[0].id);
  return { ...voter, id };
}

/** What the station's worker does with the election the package holds: the ballot for the `answer`-th candidate. */
function encryptAtStation(s: Setup, credential: string, answer: number, electionJson?: string) {
  const text = electionJson ?? s.pkg.positions.find((p) => p._id === s.treasurer._id)!.belenios!.election!;
  return generateBallot(text, parseElection(text), electionFingerprint(text), credential, { selected: [answer] });
}

const deliver = (s: Setup, ballot: ReturnType<typeof sealStationBallot>) =>
  t.request("/station/ballots", { method: "POST", token: s.session.token, json: ballot.sealed, headers: { "idempotency-key": ballot.ballotId } });

async function deliverOne(s: Setup, voterId: string, choices: StationChoice[]): Promise<StationBallotAnswer> {
  const res = await deliver(s, sealStationBallot(s.session, voterId, choices, t.clock.now()));
  expect(res.status).toBe(200);
  return (await res.json()) as StationBallotAnswer;
}

describe("a verifiable position at a polling station", () => {
  it("takes the ballot the station encrypted, once; belenios-tool verifies it on the board and in the count", async () => {
    const credentials = [generateCredential(), generateCredential(), generateCredential()];
    const s = await setUp(credentials);
    // The package carries what the device encrypts with, offline too: the election and the answers' order.
    const inPackage = s.pkg.positions.find((p) => p._id === s.treasurer._id)!.belenios!;
    expect(inPackage).toMatchObject({ uuid: s.uuid, state: "open" });
    const names = new Map(s.pkg.positions.find((p) => p._id === s.treasurer._id)!.candidates.map((c) => [c._id, c.name]));
    const answers = parseElection(inPackage.election!).question.answers;
    expect(inPackage.answerIds!.map((id) => names.get(id))).toEqual(answers);
    const bola = answers.indexOf("Bola");

    const voter = await voterOnRoll();
    const ballot = encryptAtStation(s, credentials[0], bola);
    const sealed = sealStationBallot(s.session, voter.id, [
      { positionId: s.president._id, kind: "candidate", candidateId: s.candidates[0]._id },
      { positionId: s.treasurer._id, kind: "belenios", ballot },
    ], t.clock.now());
    const first = await deliver(s, sealed);
    expect(first.status).toBe(200);
    const answer = (await first.json()) as StationBallotAnswer;
    expect(answer.outcomes).toEqual([
      { positionId: s.president._id, positionTitle: "President", counted: true, message: messages.stationBallotCounted },
      { positionId: s.treasurer._id, positionTitle: "Treasurer", counted: true, message: messages.stationBallotCounted },
    ]);
    // On the public board under the tracker the booth showed the voter; the answer holds neither ballot nor choice.
    expect((await board(s.treasurer._id)).trackers).toEqual([ballotTracker(ballot)]);
    expect(JSON.stringify(answer)).not.toContain(ballotTracker(ballot));

    // Replays (a lost answer, two at once) answer the same and store nothing more.
    const before = await records();
    const replays = await Promise.all([deliver(s, sealed), deliver(s, sealed)]);
    for (const r of replays) expect(await r.json()).toEqual(answer);
    expect(await records()).toBe(before);
    expect(await count("SELECT count(*) AS n FROM belenios_ballots")).toBe(1);
    // The voter's participation names the station, as every station vote's does; nothing on the board does.
    expect(await count("SELECT count(*) AS n FROM participations WHERE position_id = ? AND station_id = ?", [s.treasurer._id, s.stationId])).toBe(1);
    expect(await count("SELECT count(*) AS n FROM belenios_records WHERE content LIKE ?", [`%${s.stationId}%`])).toBe(0);
    expect(await (await t.request("/admin/stations/ballots", { token: admin })).json()).toMatchObject({ total: 1 });
    const audited = await t.database.client.execute("SELECT summary FROM audit_log WHERE action = 'station.ballot'");
    expect(audited.rows).toHaveLength(1);
    // The voter, signed in on a phone afterwards, has voted there: a vote stays final.
    const phone = await t.request("/vote", { method: "POST", token: voter.token, json: { positionId: s.treasurer._id, ballot: encryptAtStation(s, credentials[0], 0) } });
    expect(phone.status).toBe(409);

    await toolVerifiesArchive(s.treasurer._id, s.uuid);

    // After the close and the grace: the server (the only trustee) decrypts; the station's ballot counts for Bola.
    t.clock.advance(HOUR + t.deps.config.voteGraceMs);
    await toolVerifiesArchive(s.treasurer._id, s.uuid);
    const results = (await (await t.request("/vote/results", { token: admin })).json()) as { results: { positionId: string; breakdown: { name: string; votes: number }[]; belenios?: { verified: boolean } }[] };
    const treasurer = results.results.find((r) => r.positionId === s.treasurer._id)!;
    expect(Object.fromEntries(treasurer.breakdown.map((b) => [b.name, b.votes]))).toEqual({ Ngozi: 0, Bola: 1 });
    expect(treasurer.belenios?.verified).toBe(true);
  });

  it("gives the station each locked position's list of its public credentials, for the booth to refuse an unlisted one offline", async () => {
    const credentials = [generateCredential(), generateCredential(), generateCredential()];
    // A second verifiable position, its credentials in but not locked: they may still change, so no list.
    const s = await setUp(credentials);
    const now = t.clock.now();
    const draft = (await (
      await t.request("/admin/positions", {
        method: "POST",
        token: admin,
        json: { title: "Auditor", verifiable: true, startTime: new Date(now + HOUR).toISOString(), endTime: new Date(now + 2 * HOUR).toISOString() },
      })
    ).json()) as { _id: string; belenios: { uuid: string } };
    const draftCredentials = [publicCredential(generateCredential(), draft.belenios.uuid)];
    expect((await t.request(`/admin/positions/${draft._id}/credentials`, { method: "PUT", token: admin, json: { publicCredentials: draftCredentials } })).status).toBe(200);
    const url = `/station/package?session=${s.session.sessionId}`;
    const res = await t.request(url, { token: s.session.token });
    expect(res.status).toBe(200);
    const { credentialLists } = (await res.json()) as StationPackage;
    expect(Object.keys(credentialLists!)).toEqual([s.treasurer._id]);
    const list = credentialLists![s.treasurer._id];
    // Each uploaded public credential as the archive writes it, hashed on the device's side (the shared code), sorted.
    expect(list).toBe(s.publicCredentials.map(credentialEntry).sort().join(""));
    expect(list).toMatch(/^[0-9a-f]{48}$/);
    for (const c of credentials) expect(credentialListHas(list, credentialEntry(publicCredential(c, s.uuid)))).toBe(true);
    // A well-formed credential made for another election, or for another position, is not on it.
    expect(credentialListHas(list, credentialEntry(publicCredential(generateCredential(), s.uuid)))).toBe(false);
    expect(credentialListHas(list, credentialEntry(publicCredential(credentials[0], draft.belenios.uuid)))).toBe(false);
    // The archive anyone may download holds the same credentials: the list reveals nothing new.
    const archive = new TextDecoder().decode(await (await t.request(`/positions/${s.treasurer._id}/archive.bel`)).arrayBuffer());
    for (const c of s.publicCredentials) expect(archive).toContain(c);

    // Only the station's own session: no sign-in, a voter, an admin who staffs no station, are refused.
    expect((await t.request(url)).status).toBe(401);
    const voter = await voterOnRoll();
    expect((await t.request(url, { token: voter.token })).status).toBe(403);
    const refused = await t.request(url, { token: admin });
    expect(refused.status).toBe(403);
    expect(await refused.text()).not.toContain(list.slice(0, 16));
  });

  it("refuses, per position, what a voter's own device would be refused, and stores nothing for it", async () => {
    const credentials = [generateCredential(), generateCredential(), generateCredential()];
    const s = await setUp(credentials);
    const [counted, phoneFirst, refused] = [await voterOnRoll(), await voterOnRoll(), await voterOnRoll()];
    const ballot = encryptAtStation(s, credentials[0], 0);
    expect((await deliverOne(s, counted.id, [{ positionId: s.treasurer._id, kind: "belenios", ballot }])).outcomes[0].counted).toBe(true);
    // A voter who cast their ballot on their phone first.
    expect((await t.request("/vote", { method: "POST", token: phoneFirst.token, json: { positionId: s.treasurer._id, ballot: encryptAtStation(s, credentials[1], 1) } })).status).toBe(201);

    const otherElection = (() => {
      const text = s.pkg.positions.find((p) => p._id === s.treasurer._id)!.belenios!.election!;
      const election = parseElection(text);
      return serializeElection({ ...election, uuid: "AbCdEfGhJkLmNp" });
    })();
    const tampered = encryptAtStation(s, credentials[2], 0).replace(/"response":"(\d)/, (_m, d: string) => `"response":"${d === "1" ? "2" : "1"}`);
    const cases: [string, StationChoice, string][] = [
      [refused.id, { positionId: s.treasurer._id, kind: "belenios", ballot: tampered }, verifiableMessages.ballotInvalid],
      [refused.id, { positionId: s.treasurer._id, kind: "belenios", ballot: "{" }, verifiableMessages.ballotInvalid],
      [refused.id, { positionId: s.treasurer._id, kind: "belenios", ballot: encryptAtStation(s, credentials[2], 0, otherElection) }, verifiableMessages.ballotOtherElection],
      [refused.id, { positionId: s.treasurer._id, kind: "belenios", ballot: encryptAtStation(s, generateCredential(), 0) }, verifiableMessages.unknownCredential],
      [refused.id, { positionId: s.treasurer._id, kind: "belenios", ballot }, verifiableMessages.credentialUsed],
      [phoneFirst.id, { positionId: s.treasurer._id, kind: "belenios", ballot: encryptAtStation(s, credentials[2], 0) }, messages.stationVotedElsewhere],
      [refused.id, { positionId: s.treasurer._id, kind: "candidate", candidateId: s.pkg.positions.find((p) => p._id === s.treasurer._id)!.candidates[0]._id }, verifiableMessages.stationNeedsBallot],
      [refused.id, { positionId: s.president._id, kind: "belenios", ballot: encryptAtStation(s, credentials[2], 0) }, verifiableMessages.notVerifiable],
    ];
    const before = await records();
    for (const [voterId, choice, message] of cases) {
      const answer = await deliverOne(s, voterId, [choice]);
      expect(answer.outcomes, message).toHaveLength(1);
      expect(answer.outcomes[0]).toMatchObject({ positionId: choice.positionId, counted: false });
      expect(answer.outcomes[0].message).toContain(message);
      // Every refusal is audited with voter and position, never a ballot.
      const summary = String((await t.database.client.execute("SELECT summary FROM audit_log WHERE action = 'station.refusal' ORDER BY seq DESC LIMIT 1")).rows[0].summary);
      expect(summary).toContain(message.slice(0, 20));
      expect(summary).not.toContain("alpha");
    }
    expect(await records()).toBe(before);
    expect(await count("SELECT count(*) AS n FROM participations WHERE voter_id = ?", [refused.id])).toBe(0);
    expect((await board(s.treasurer._id)).trackers).toHaveLength(2);

    // The refused voter still votes, with their own credential: the station's refusals stored nothing.
    const late = [{ positionId: s.treasurer._id, kind: "belenios" as const, ballot: encryptAtStation(s, credentials[2], 1) }];
    // Cast after the position's end (inside the offline grace): the station's timing rule refuses it.
    t.clock.advance(HOUR);
    expect((await deliverOne(s, refused.id, late)).outcomes[0]).toMatchObject({ counted: false, message: messages.votingEnded });
    const inTime = sealStationBallot(s.session, refused.id, late, t.clock.now() - HOUR + 1_000);
    expect(((await (await deliver(s, inTime)).json()) as StationBallotAnswer).outcomes[0].counted).toBe(true);
    await toolVerifiesArchive(s.treasurer._id, s.uuid);
  });

  it("comes in once from the station's exported file, and the device delivering it later is answered the same", async () => {
    const credentials = [generateCredential()];
    const s = await setUp(credentials);
    const voter = await voterOnRoll();
    const sealed = sealStationBallot(s.session, voter.id, [{ positionId: s.treasurer._id, kind: "belenios", ballot: encryptAtStation(s, credentials[0], 0) }], t.clock.now());
    const list = [{ ballotId: sealed.ballotId, sealed: sealed.sealed, voter: { matricNumber: voter.matricNumber, name: "label" } }];
    const file = {
      kind: STATION_EXPORT_KIND,
      v: 1,
      station: { _id: s.stationId, name: "Library Hall 1" },
      exportedAt: new Date(t.clock.now()).toISOString(),
      ballots: list,
      sha256: createHash("sha256").update(JSON.stringify(list), "utf8").digest("hex"),
    };
    const importFile = () => t.request("/admin/stations/import", { method: "POST", token: admin, json: file });
    expect(await (await importFile()).json()).toMatchObject({ counted: 1, refused: 0, alreadyIn: 0 });
    expect(await (await importFile()).json()).toMatchObject({ counted: 0, alreadyIn: 1 });
    expect(((await (await deliver(s, sealed)).json()) as StationBallotAnswer).outcomes[0].counted).toBe(true);
    expect((await board(s.treasurer._id)).trackers).toHaveLength(1);
    await toolVerifiesArchive(s.treasurer._id, s.uuid);
  });

  it("takes a ballot of several large verifiable positions in one envelope, past the ordinary 64 KB body limit", async () => {
    const credentials = [generateCredential()];
    const s = await setUp(credentials);
    const voter = await voterOnRoll();
    const ballot = encryptAtStation(s, credentials[0], 0);
    // Twelve ballots for two positions: one per position is read (the first), the other refused.
    const choices = [{ positionId: s.treasurer._id, kind: "belenios" as const, ballot }, ...Array.from({ length: 11 }, () => ({ positionId: s.president._id, kind: "belenios" as const, ballot }))];
    const sealed = sealStationBallot(s.session, voter.id, choices, t.clock.now());
    expect(JSON.stringify(sealed.sealed).length).toBeGreaterThan(64 * 1024);
    const answer = (await (await deliver(s, sealed)).json()) as StationBallotAnswer;
    expect(answer.outcomes.map((o) => o.counted)).toEqual([true, false]);
    // Past the sealed ballot's own limit: 413, nothing read.
    const huge = { ...sealed.sealed, data: "A".repeat(1_100_000) };
    const res = await t.request("/station/ballots", { method: "POST", token: s.session.token, json: huge, headers: { "idempotency-key": sealed.ballotId } });
    expect(res.status).toBe(413);
  });
});
