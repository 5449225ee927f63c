/**
 * Verifiable positions through HTTP on a real database (docs/verifiable.md), held to Debian's
 * belenios-tool at every step: the served archive passes `belenios-tool election verify` after
 * the lock, during voting, after the tally and after the result; keys, ballots and partial
 * decryptions made by the tool are accepted, and ours are accepted by the tool.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  buildArchive,
  checkArchiveChain,
  concatBytes,
  eventRecords,
  computePartialDecryption,
  decryptOutput,
  electionFingerprint,
  generateBallot,
  generateCredential,
  generateTrusteeKey,
  G,
  parseElection,
  parseEncryptedTally,
  parsePrivateKey,
  parseTrusteeKey,
  powm,
  precomputeBase,
  publicCredential,
  randomZq,
  readArchive,
  sha256Hex,
} from "@evoting/shared/belenios";
import type { ElectionArchive, PositionResult } from "@evoting/shared";
import { createHash } from "node:crypto";
import { tool, toolVerifies } from "../../../shared/src/belenios/belenios-tool.test-support.ts";
import { createTestApp, type TestApp } from "../test/harness.ts";
import { archiveStream, verifiableMessages } from "../services/belenios/verifiable.ts";
import { ballotVerifier } from "../services/belenios/verifier.ts";

let t: TestApp;
let admin: string;
beforeEach(async () => {
  t = await createTestApp({ ballotBatch: 1 });
  admin = await t.adminToken();
});
afterEach(async () => t.close());

const dirs: string[] = [];
const scratch = () => {
  const d = mkdtempSync(join(tmpdir(), "belenios-api-"));
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const HOUR = 3_600_000;

async function createPosition(fields: Record<string, unknown>) {
  const now = t.clock.now();
  return t.request("/admin/positions", {
    method: "POST",
    token: admin,
    json: { title: "President", startTime: new Date(now - HOUR).toISOString(), endTime: new Date(now + HOUR).toISOString(), ...fields },
  });
}

/** The served archive, alone in a fresh folder, as an observer would download it. */
async function download(positionId: string): Promise<{ dir: string; bytes: Uint8Array }> {
  const res = await t.request(`/positions/${positionId}/archive.bel`);
  expect(res.status).toBe(200);
  const bytes = new Uint8Array(await res.arrayBuffer());
  const dir = scratch();
  const uuid = /filename="([^"]+)\.bel"/.exec(res.headers.get("content-disposition") ?? "")![1];
  writeFileSync(join(dir, `${uuid}.bel`), bytes);
  return { dir, bytes };
}

async function expectToolVerifies(positionId: string) {
  const { dir } = await download(positionId);
  const verdict = toolVerifies(dir);
  expect(verdict.output).toContain("all checks passed");
  expect(verdict.ok).toBe(true);
  return dir;
}

const vote = (token: string, json: Record<string, unknown>) => t.request("/vote", { method: "POST", token, json });

async function resultFor(positionId: string): Promise<PositionResult> {
  const res = await t.request("/vote/results", { token: admin });
  return ((await res.json()).results as PositionResult[]).find((r) => r.positionId === positionId)!;
}

async function recordCount(): Promise<number> {
  const r = await t.database.client.execute("SELECT count(*) AS n FROM belenios_records");
  return Number(r.rows[0].n);
}

describe("verifiable positions", () => {
  it("are off by default and refused for ranked positions", async () => {
    const plain = await createPosition({});
    expect((await plain.json()).belenios).toBeUndefined();
    const ranked = await createPosition({ method: "ranked", verifiable: true });
    expect(ranked.status).toBe(400);
    expect((await ranked.json()).message).toBe(verifiableMessages.ranked);
    expect(await (await t.request("/admin/positions", { token: admin })).json()).toHaveLength(1);
  });

  it("check a roll's public credentials off the event loop: ordinary votes are answered meanwhile, refusals unchanged", async () => {
    const soon = t.clock.now() + 60_000;
    const position = (await (await createPosition({ verifiable: true, title: "Treasurer", startTime: new Date(soon).toISOString() })).json()) as { _id: string };
    const { position: ordinary, candidates } = await t.openElection(admin);
    const voters = await Promise.all(Array.from({ length: 8 }, () => t.createVoter(admin)));
    // A roll's worth of public credentials: g^x for random x (as g^secret(c), cheaper to make here).
    precomputeBase(G);
    const roll = Array.from({ length: 2_500 }, () => powm(G, randomZq()).toString());
    const put = (publicCredentials: string[]) => t.request(`/admin/positions/${position._id}/credentials`, { method: "PUT", token: admin, json: { publicCredentials } });

    // Watch the check: while it is under way, is the server answering votes?
    const verifier = ballotVerifier();
    const check = verifier.arePublicCredentials.bind(verifier);
    let checking = false;
    const spy = vi.spyOn(verifier, "arePublicCredentials").mockImplementation(async (list) => {
      checking = true;
      try {
        return await check(list);
      } finally {
        checking = false;
      }
    });
    try {
      let settled = false;
      const upload = Promise.resolve(put(roll)).finally(() => (settled = true));
      while (!checking && !settled) await new Promise((r) => setImmediate(r));
      // Votes sent and answered while the credentials were being checked: with the check on the
      // event loop, none could be.
      const answeredDuringCheck: number[] = [];
      for (const v of voters) {
        if (!checking) break;
        const res = await vote(v.token, { positionId: ordinary._id, candidateId: candidates[0]._id });
        if (checking) answeredDuringCheck.push(res.status);
      }
      expect(answeredDuringCheck.length).toBeGreaterThan(0);
      expect(answeredDuringCheck.every((s) => s === 201)).toBe(true);
      expect(await (await upload).json()).toEqual({ count: 2_500 });
      expect(spy).toHaveBeenCalledTimes(1);
    } finally {
      spy.mockRestore();
    }
    const stored = async () =>
      (await t.database.client.execute({ sql: "SELECT credential FROM belenios_credentials WHERE position_id = ? ORDER BY credential", args: [position._id] })).rows.map((r) => String(r.credential));
    expect(await stored()).toEqual([...roll].sort());

    // The same refusals as before: a non-member anywhere in the list (here the last), a
    // duplicate, a number that is not a group element at all; nothing stored changes.
    for (const bad of [[...roll.slice(1), "12345"], [...roll.slice(1), roll[1]], ["2"]]) {
      const res = await put(bad);
      expect(res.status).toBe(400);
      expect((await res.json()).message).toBe(verifiableMessages.badCredentials);
    }
    expect(await stored()).toEqual([...roll].sort());
  });

  it("serve a large ballot box a page of records at a time, the event loop free between pages, as stored when the download starts", async () => {
    const position = (await (await createPosition({ verifiable: true, startTime: new Date(t.clock.now() + 60_000).toISOString() })).json()) as {
      _id: string;
      belenios: { uuid: string };
    };
    for (const name of ["Ada", "Bo"]) await t.createCandidate(admin, position._id, name);
    expect((await t.request("/admin/trustees", { method: "POST", token: admin, json: { name: "Server", server: true } })).status).toBe(201);
    const publicCredentials = [generateCredential(), generateCredential()].map((c) => publicCredential(c, position.belenios.uuid));
    expect((await t.request(`/admin/positions/${position._id}/credentials`, { method: "PUT", token: admin, json: { publicCredentials } })).status).toBe(200);
    expect((await t.request(`/admin/positions/${position._id}/lock`, { method: "POST", token: admin })).status).toBe(200);

    // A board of 1,200 more events (2,400 records), each a payload and its event, chained as the server chains them.
    const lastEvent = async () => {
      const r = await t.database.client.execute({ sql: "SELECT seq, hash, content FROM belenios_records WHERE position_id = ? ORDER BY seq DESC LIMIT 1", args: [position._id] });
      return { seq: Number(r.rows[0].seq), hash: String(r.rows[0].hash), height: (JSON.parse(String(r.rows[0].content)) as { height: number }).height };
    };
    const appendEvents = async (count: number) => {
      let last = await lastEvent();
      const inserts = [];
      for (let i = 0; i < count; i++) {
        const records = eventRecords(last, "Ballot", [JSON.stringify({ filler: i, pad: "x".repeat(2_000) })]);
        for (const r of records) inserts.push({ sql: "INSERT INTO belenios_records (position_id, seq, kind, hash, content) VALUES (?, ?, ?, ?, ?)", args: [position._id, ++last.seq, r.kind, r.hash, r.content] });
        last = { seq: last.seq, hash: records[records.length - 1].hash, height: last.height + 1 };
      }
      await t.database.client.batch(inserts, "write");
    };
    await appendEvents(1_200);
    const stored = await t.database.client.execute({ sql: "SELECT kind, hash, content FROM belenios_records WHERE position_id = ? ORDER BY seq", args: [position._id] });
    const storedRecords = stored.rows.map((r) => ({ kind: r.kind as "data" | "event", hash: String(r.hash), content: String(r.content) }));

    // The stream the route serves: a page of at most 250 records per chunk, read after a turn of
    // the event loop (a macrotask counter moves between pages), so nothing holds the loop for long.
    let turns = 0;
    let counting = true;
    const count = () => {
      turns++;
      if (counting) setImmediate(count);
    };
    setImmediate(count);
    const reader = (await archiveStream(t.database, position._id))!.getReader();
    const pages: Uint8Array[] = [];
    for (let before = turns; ; before = turns) {
      const { done, value } = await reader.read();
      if (done) break;
      if (pages.length > 0) expect(turns - before, `a turn of the loop before page ${pages.length}`).toBeGreaterThan(0);
      pages.push(value);
    }
    counting = false;
    expect(pages.length).toBe(1 + Math.ceil(storedRecords.length / 250));
    expect(pages.slice(1).map((p) => readArchive(p).length)).toEqual(pages.slice(1).map((_, i) => Math.min(250, storedRecords.length - 250 * i)));

    // Over HTTP: the board as stored when the download started; ballots that land while it is
    // read are the next download's.
    const res = await t.request(`/positions/${position._id}/archive.bel`);
    expect(res.status).toBe(200);
    const body = res.body!.getReader();
    const chunks: Uint8Array[] = [];
    for (;;) {
      const { done, value } = await body.read();
      if (done) break;
      chunks.push(value);
      if (chunks.length === 2) await appendEvents(3);
    }
    const served = concatBytes(chunks);
    const startedAt = Number(/"timestamp":"(\d+)"/.exec(readArchive(served)[0].content)![1]);
    const digest = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
    expect(digest(served)).toBe(digest(buildArchive(startedAt, storedRecords)));
    expect(checkArchiveChain(served).fingerprint).toBe(storedRecords[storedRecords.length - 1].hash);
    const next = new Uint8Array(await (await t.request(`/positions/${position._id}/archive.bel`)).arrayBuffer());
    expect(readArchive(next)).toHaveLength(readArchive(served).length + 6);
  });

  it("run a whole election that belenios-tool verifies at every step", async () => {
    // Starting in a minute: unlocked until then (at its start it would lock itself).
    const soon = t.clock.now() + 60_000;
    const res = await createPosition({ verifiable: true, startTime: new Date(soon).toISOString() });
    expect(res.status).toBe(201);
    const position = (await res.json()) as { _id: string; belenios: { uuid: string; state: string } };
    expect(position.belenios.state).toBe("setup");
    const uuid = position.belenios.uuid;
    for (const name of ["Ada", "Bo", "Cy"]) await t.createCandidate(admin, position._id, name);
    expect((await t.request(`/admin/positions/${position._id}`, { method: "PATCH", token: admin, json: { allowAbstain: true } })).status).toBe(200);
    expect(await (await t.request("/admin/positions", { token: admin })).json()).toEqual([expect.objectContaining({ belenios: { uuid, state: "setup" } })]);

    // Trustees: one key from the tool, one from our code, and the server.
    const toolKeyDir = scratch();
    tool(toolKeyDir, ["setup", "generate-trustee-key", "--group", "BELENIOS-2048"]);
    const toolPub = readFileSync(join(toolKeyDir, readdirSync(toolKeyDir).find((f) => f.endsWith(".pubkey"))!), "utf8").trim();
    const toolPrivFile = join(toolKeyDir, readdirSync(toolKeyDir).find((f) => f.endsWith(".privkey"))!);
    const ours = generateTrusteeKey();
    const addTrustee = (json: Record<string, unknown>) => t.request("/admin/trustees", { method: "POST", token: admin, json });
    const forged = JSON.stringify({ ...JSON.parse(toolPub), public_key: parseTrusteeKey(ours.publicKey).publicKey.toString() });
    const bad = await addTrustee({ name: "Forger", publicKey: forged });
    expect(bad.status).toBe(400);
    expect((await bad.json()).message).toBe(verifiableMessages.badTrusteeKey);
    expect((await addTrustee({ name: "Returning Officer", publicKey: toolPub })).status).toBe(201);
    expect((await addTrustee({ name: "Agent", publicKey: ours.publicKey })).status).toBe(201);
    expect((await addTrustee({ name: "Server", server: true })).status).toBe(201);
    const trustees = (await (await t.request("/admin/trustees", { token: admin })).json()) as { id: number; name: string; server: boolean }[];
    expect(trustees.map((x) => [x.id, x.name, x.server])).toEqual([
      [1, "Returning Officer", false],
      [2, "Agent", false],
      [3, "Server", true],
    ]);

    // Credentials: made by the credential authority's code; one more by the tool, derived for this uuid.
    const creds = [generateCredential(), generateCredential(), generateCredential()];
    const toolCredDir = scratch();
    tool(toolCredDir, ["setup", "generate-credentials", "--uuid", uuid, "--group", "BELENIOS-2048", "--count", "1"]);
    const toolCred = readFileSync(join(toolCredDir, readdirSync(toolCredDir).find((f) => f.endsWith(".privcreds"))!), "utf8").trim().split(" ")[1];
    const publicCredentials = [...creds.map((c) => publicCredential(c, uuid)), publicCredential(toolCred, uuid)];
    const badCreds = await t.request(`/admin/positions/${position._id}/credentials`, { method: "PUT", token: admin, json: { publicCredentials: ["12345"] } });
    expect(badCreds.status).toBe(400);
    const put = await t.request(`/admin/positions/${position._id}/credentials`, { method: "PUT", token: admin, json: { publicCredentials } });
    expect(await put.json()).toEqual({ count: 4 });

    // Before the lock a vote is refused; the lock writes Setup and the tool accepts the archive.
    const voters = await Promise.all([1, 2, 3, 4, 5].map(() => t.createVoter(admin)));
    expect((await t.request(`/positions/${position._id}/archive.bel`)).status).toBe(404);
    const lock = await t.request(`/admin/positions/${position._id}/lock`, { method: "POST", token: admin });
    expect(lock.status).toBe(200);
    expect((await t.request(`/admin/positions/${position._id}/lock`, { method: "POST", token: admin })).status).toBe(409);
    expect((await addTrustee({ name: "Late", publicKey: generateTrusteeKey().publicKey })).status).toBe(409);
    expect((await t.request(`/admin/positions/${position._id}/credentials`, { method: "PUT", token: admin, json: { publicCredentials } })).status).toBe(409);
    expect((await t.request(`/admin/positions/${position._id}`, { method: "PATCH", token: admin, json: { allowAbstain: false } })).status).toBe(409);
    // Edit Position sends every field: the window moves when the ballot's fields keep their values.
    const { endTime } = ((await (await t.request("/admin/positions", { token: admin })).json()) as { endTime: string }[])[0];
    const edit = { title: "President", allowAbstain: true, method: "single", eligibleGroups: [], endTime: new Date(Date.parse(endTime) + HOUR).toISOString() };
    const moved = await t.request(`/admin/positions/${position._id}`, { method: "PATCH", token: admin, json: edit });
    expect(moved.status, await moved.clone().text()).toBe(200);
    expect((await t.request(`/admin/positions/${position._id}`, { method: "PATCH", token: admin, json: { ...edit, method: "multi", seats: 2 } })).status).toBe(409);
    expect((await t.request(`/admin/positions/${position._id}`, { method: "PATCH", token: admin, json: { ...edit, endTime } })).status).toBe(200);
    const lateCandidate = new FormData();
    lateCandidate.set("name", "Dee");
    lateCandidate.set("positionId", position._id);
    expect((await t.request("/admin/candidates", { method: "POST", token: admin, body: lateCandidate })).status).toBe(409);
    const setupDir = await expectToolVerifies(position._id);
    // The public list of ballot boxes, and what a voter's device encrypts for (kept with the ballot).
    expect(await (await t.request("/positions/verifiable")).json()).toEqual([{ positionId: position._id, title: "President", uuid, state: "open" }]);
    const ballotList = (await (await t.request("/vote/positions", { token: voters[0].token })).json()) as { _id: string; belenios?: { election?: string; answerIds?: string[] }; candidates: { _id: string; name: string }[] }[];
    const onBallot = ballotList.find((p) => p._id === position._id)!;
    expect(onBallot.belenios!.answerIds).toEqual(["Ada", "Bo", "Cy"].map((n) => onBallot.candidates.find((c) => c.name === n)!._id));
    t.clock.advance(120_000);

    // The election as the archive states it: what voters' devices build ballots for.
    const bel = readArchive(new Uint8Array(readFileSync(join(setupDir, `${uuid}.bel`))));
    const electionJson = bel.find((m) => m.name.endsWith(".data.json") && m.content.startsWith('{"version":1'))!.content;
    const election = parseElection(electionJson);
    expect(onBallot.belenios!.election).toBe(electionJson);
    expect(election.question).toEqual({ answers: ["Ada", "Bo", "Cy"], blank: true, min: 1, max: 1, question: "President" });
    const fp = electionFingerprint(electionJson);

    // A ballot from the tool (its credential) and ballots from our code.
    writeFileSync(join(setupDir, "cred"), toolCred);
    writeFileSync(join(setupDir, "choice"), "[[0,0,1,0]]");
    const toolBallot = tool(setupDir, ["election", "generate-ballot", "--privcred", "cred", "--ballot", "choice"]).trim();
    const first = await vote(voters[0].token, { positionId: position._id, ballot: toolBallot });
    expect(first.status).toBe(201);
    const { tracker } = (await first.json()) as { tracker: string };
    expect(tracker).toBe(tool(setupDir, ["sha256-b64"], toolBallot).trim());

    const b1 = generateBallot(electionJson, election, fp, creds[0], { selected: [1] });
    const b2 = generateBallot(electionJson, election, fp, creds[1], { blank: true });
    expect((await vote(voters[1].token, { positionId: position._id, ballot: b1 })).status).toBe(201);
    // The same ballot again from the same voter (an outbox retry): the same answer, stored once.
    const before = await recordCount();
    const again = await vote(voters[1].token, { positionId: position._id, ballot: b1 });
    expect(again.status).toBe(201);
    expect(await recordCount()).toBe(before);

    // Refusals, each with its status and message, and nothing stored.
    const refusals: [string, Record<string, unknown>, number, string][] = [
      [voters[2].token, { positionId: position._id, ballot: b1.replace(/"response":"(\d)/, (_m, d: string) => `"response":"${d === "1" ? "2" : "1"}`) }, 400, verifiableMessages.ballotInvalid],
      [voters[2].token, { positionId: position._id, ballot: b1 }, 409, verifiableMessages.credentialUsed],
      [voters[1].token, { positionId: position._id, ballot: b2 }, 409, verifiableMessages.alreadyVoted],
      [voters[2].token, { positionId: position._id, ballot: generateBallot(electionJson, election, fp, generateCredential(), { selected: [0] }) }, 403, verifiableMessages.unknownCredential],
      [voters[2].token, { positionId: position._id, ballot: "{" }, 400, verifiableMessages.ballotInvalid],
      [voters[2].token, { positionId: position._id, candidateId: "x" }, 400, verifiableMessages.needsBallot],
    ];
    for (const [token, json, status, message] of refusals) {
      const r = await vote(token, json);
      expect(r.status, JSON.stringify(json).slice(0, 80)).toBe(status);
      expect((await r.json()).message).toContain(message);
    }
    expect(await recordCount()).toBe(before);
    // A ballot for another verifiable position is refused as such.
    const other = (await (await createPosition({ verifiable: true, title: "Treasurer" })).json()) as { _id: string };
    const foreign = await vote(voters[2].token, { positionId: other._id, ballot: b2 });
    expect(foreign.status).toBe(409); // not locked: it takes no vote at all

    expect((await vote(voters[2].token, { positionId: position._id, ballot: b2 })).status).toBe(201);
    const board = (await (await t.request(`/positions/${position._id}/board`)).json()) as { fingerprint: string; trackers: string[] };
    expect(board.trackers).toHaveLength(3);
    expect(board.trackers).toContain(tracker);
    const duringDir = await expectToolVerifies(position._id);
    // No live tallies: the ballot count only.
    const live = await resultFor(position._id);
    expect(live.totalVotes).toBe(3);
    expect(live.breakdown.map((b) => b.votes)).toEqual([0, 0, 0]);
    expect(live.belenios).toMatchObject({ state: "open", verified: false });
    const liveCsv = (await (await t.request("/admin/results.csv", { token: admin })).text()).split("\r\n");
    expect(liveCsv[0]).toBe("position,choice,candidateId,votes,percentage,outcome,verification");
    expect(liveCsv.filter((l) => l.startsWith("President,"))).toHaveLength(3);
    for (const line of liveCsv.filter((l) => l.startsWith("President,"))) expect(line).toMatch(/,Encrypted: counted when the trustees decrypt$/);
    expect(checkArchiveChain(new Uint8Array(readFileSync(join(duringDir, `${uuid}.bel`)))).fingerprint).toBe(board.fingerprint);

    // A stored ballot changed in the database: the chain check names it, the tool refuses it.
    const row = await t.database.client.execute("SELECT seq, hash, content FROM belenios_records WHERE content LIKE '{\"election_uuid\"%' ORDER BY seq LIMIT 1");
    const original = String(row.rows[0].content);
    await t.database.client.execute({ sql: "UPDATE belenios_records SET content = ? WHERE seq = ?", args: [original.replace(/"alpha":"1/, '"alpha":"2'), row.rows[0].seq] });
    const tampered = await download(position._id);
    expect(checkArchiveChain(tampered.bytes).problems.join()).toContain(`${String(row.rows[0].hash)}.data.json does not match its hash`);
    expect(toolVerifies(tampered.dir).ok).toBe(false);
    await t.database.client.execute({ sql: "UPDATE belenios_records SET content = ? WHERE seq = ?", args: [original, row.rows[0].seq] });

    // Partial decryptions are refused before the tally; after the close and the grace the
    // server appends EndBallots, the encrypted tally and its own partial decryption.
    const early = await t.request(`/admin/positions/${position._id}/partial-decryptions`, { method: "POST", token: admin, json: { trusteeId: 1, partialDecryption: "{}" } });
    expect(early.status).toBe(409);
    t.clock.advance(HOUR + t.deps.config.voteGraceMs + 1000);
    const tallyDir = await expectToolVerifies(position._id);
    const states = (await (await t.request("/admin/positions", { token: admin })).json()) as { _id: string; belenios?: { state: string } }[];
    expect(states.find((p) => p._id === position._id)!.belenios!.state).toBe("tallying");

    // Trustee 1 decrypts with the tool; trustee 2 with our code; a wrong one is refused.
    const toolPd = tool(tallyDir, ["election", "decrypt", "--privkey", toolPrivFile, "--trustee-id", "1"]).trim();
    const submit = (trusteeId: number, partialDecryption: string) =>
      t.request(`/admin/positions/${position._id}/partial-decryptions`, { method: "POST", token: admin, json: { trusteeId, partialDecryption } });
    const wrong = await submit(2, toolPd);
    expect(wrong.status).toBe(400);
    expect(await (await submit(1, toolPd)).json()).toEqual({ remaining: 1 });
    const declare = await t.request("/admin/election/declare", { method: "POST", token: admin });
    expect(declare.status).toBe(409);
    expect((await declare.json()).problems).toEqual(["President"]); // Treasurer was never locked: nothing to decrypt
    expect((await submit(1, toolPd)).status).toBe(409);
    const tallyMember = readArchive(new Uint8Array(readFileSync(join(tallyDir, `${uuid}.bel`)))).find((m) => m.content.startsWith('[[{"alpha"'))!;
    const ourPd = computePartialDecryption(fp, parsePrivateKey(ours.privateKey), parseTrusteeKey(ours.publicKey).publicKey, parseEncryptedTally(tallyMember.content));
    expect(await (await submit(2, decryptOutput(ourPd, 2))).json()).toEqual({ remaining: 0 });

    const finalDir = await expectToolVerifies(position._id);
    // Blank, Ada, Bo, Cy: the tool's ballot and b1 chose Bo, b2 is blank.
    const result = readArchive(new Uint8Array(readFileSync(join(finalDir, `${uuid}.bel`)))).find((m) => m.content.startsWith('{"result"'))!;
    expect(JSON.parse(result.content)).toEqual({ result: [[1, 0, 2, 0]] });
    expect(tool(finalDir, ["election", "compute-result"]).trim()).toBe(result.content);
    // The same counts in the results, marked verified, with the final fingerprint.
    const final = await resultFor(position._id);
    expect(Object.fromEntries(final.breakdown.map((b) => [b.name, b.votes]))).toEqual({ Ada: 0, Bo: 2, Cy: 0 });
    expect(final).toMatchObject({ totalVotes: 3, abstentions: 1, belenios: { state: "decrypted", verified: true, fingerprint: checkArchiveChain(new Uint8Array(readFileSync(join(finalDir, `${uuid}.bel`)))).fingerprint } });
    expect(sha256Hex(result.content)).toHaveLength(64);
    const finalCsv = await (await t.request("/admin/results.csv", { token: admin })).text();
    expect(finalCsv).toContain(`President,Bo,${final.breakdown.find((b) => b.name === "Bo")!.candidateId},2,100.00,leading,Verified with Belenios; final fingerprint ${final.belenios!.fingerprint}\r\n`);

    // Declared: the archive keeps the position's final fingerprint and its .bel, which Past
    // Elections serves as it was, for the tool, and refuses once the board was changed.
    const declared = await t.request("/admin/election/declare", { method: "POST", token: admin });
    expect(declared.status).toBeLessThan(300);
    const [past] = (await (await t.request("/elections", { token: admin })).json()) as { id: number }[];
    const archive = (await (await t.request(`/elections/${past.id}`, { token: admin })).json()) as ElectionArchive;
    const finalBytes = new Uint8Array(readFileSync(join(finalDir, `${uuid}.bel`)));
    expect(archive.verifiable).toEqual([
      { positionId: position._id, positionTitle: "President", uuid, fingerprint: final.belenios!.fingerprint, archiveSha256: createHash("sha256").update(finalBytes).digest("hex"), ballots: 3 },
    ]);
    const voterToken = (await t.createVoter(admin)).token;
    const served = await t.request(`/elections/${past.id}/positions/${position._id}/archive.bel`, { token: voterToken });
    expect(served.status).toBe(200);
    const pastDir = scratch();
    writeFileSync(join(pastDir, `${uuid}.bel`), new Uint8Array(await served.arrayBuffer()));
    expect(new Uint8Array(readFileSync(join(pastDir, `${uuid}.bel`)))).toEqual(finalBytes);
    expect(toolVerifies(pastDir).ok).toBe(true);
    expect((await t.request(`/elections/${past.id}/positions/${position._id}/archive.bel`)).status).toBe(401);
    expect((await t.request(`/elections/${past.id}/positions/no-such-position/archive.bel`, { token: voterToken })).status).toBe(404);
    await t.database.client.execute({
      sql: `UPDATE belenios_records SET content = replace(content, '"credential":"', '"credential":"1') WHERE position_id = ? AND kind = 'data' AND content LIKE '{"election_uuid"%' AND seq = (SELECT min(seq) FROM belenios_records WHERE position_id = ? AND kind = 'data' AND content LIKE '{"election_uuid"%')`,
      args: [position._id, position._id],
    });
    expect((await t.request(`/elections/${past.id}/positions/${position._id}/archive.bel`, { token: voterToken })).status).toBe(409);
  });
});
