/**
 * Verifiable positions as Belenios 2.0 elections (DESIGN.md section 9, docs/verifiable.md): the
 * set-up (trustees, credentials, lock), the public board (the archive's records, append-only,
 * one writer at a time per position), ballots, and the count (EndBallots, EncryptedTally, the
 * trustees' partial decryptions, Result). Every rule is checked here, on the server.
 */
import { createHmac, hash } from "node:crypto";
import {
  archiveHeader,
  combineKeys,
  computePartialDecryption,
  computeResult,
  CREDENTIAL_ENTRY_BYTES,
  decryptOutput,
  electionFingerprint,
  encryptedTally,
  eventRecords,
  generateUuid,
  recordMembers,
  parseBallot,
  parseElection,
  parseEncryptedTally,
  parsePartialDecryption,
  parseTrusteeKey,
  packCredentialList,
  proveKnowledge,
  Q,
  serializeElection,
  serializeEncryptedTally,
  serializeResult,
  serializeTrusteeKey,
  serializeTrustees,
  setupPayloads,
  sha256Hex,
  verifyPartialDecryption,
  verifyTrusteeKey,
  BeleniosFormatError,
  type ArchiveRecord,
  type EventType,
  type Question,
  type TrusteePublicKey,
} from "@evoting/shared/belenios";
import type { Database } from "../../db/client.ts";
import { RESULTS_VERSION } from "../../db/schema.ts";
import type { Keys } from "../../security/keys.ts";
import { fail } from "../../http/errors.ts";
import { hourOf, sealVerifiableParticipation } from "../votes/participation-seal.ts";
import { ballotVerifier } from "./verifier.ts";

export const verifiableMessages = {
  ranked: "A ranked position cannot be verifiable yet: Belenios counts ranked ballots with mixnets, which this version does not run.",
  notVerifiable: "This position is not verifiable.",
  locked: "This verifiable position is locked: its candidates, trustees and credentials can no longer change.",
  trusteesFrozen: "Trustees can no longer change: a verifiable position is already locked.",
  badTrusteeKey: "This public key's proof of knowledge does not verify: generate the key again.",
  trusteeName: "Give the trustee a name.",
  serverTrusteeTwice: "The server is already a trustee.",
  badCredentials: "Each public credential must be a Belenios BELENIOS-2048 public credential, each one once.",
  noTrustees: "Add at least one trustee before locking.",
  noCredentials: "Upload the public credentials before locking.",
  noCandidates: "Add the candidates before locking.",
  alreadyLocked: "This position is already locked.",
  notLocked: "This verifiable position was not locked before its start, so it takes no vote.",
  ballotInvalid: "This ballot does not verify.",
  ballotOtherElection: "This ballot is for another position.",
  unknownCredential: "This credential is not on this position's list.",
  credentialUsed: "A ballot with this credential is already in the ballot box.",
  alreadyVoted: "You have already voted for this position; your vote is final.",
  notTallying: "This position's encrypted tally is not ready yet.",
  noSuchTrustee: "No trustee has that number.",
  alreadyDecrypted: "This trustee's partial decryption is already in.",
  badPartialDecryption: "This partial decryption's proofs do not verify with that trustee's key.",
  notYourTrustee: "Only an administrator or the account that registered this trustee can submit its partial decryption.",
  serverTrusteeAdminOnly: "Only an administrator can make the server a trustee.",
  oneTrusteePerObserver: "You are already a trustee: an observer registers one key.",
  needsBallotOrChoice: "Send either a Belenios ballot or a choice, not both.",
  needsBallot: "This position is verifiable: send the Belenios ballot built on your device.",
  stationNeedsBallot: "Not counted: this position is verifiable, so its ballot must be encrypted with the voter's credential, and this station sent a plain choice.",
  ballotBoxClosed: "This verifiable position's ballot box is closed: its encrypted tally is already computed.",
} as const;

export type BeleniosState = "setup" | "open" | "tallying" | "decrypted";

export interface VerifiableRow {
  positionId: string;
  uuid: string;
  state: BeleniosState;
  electionJson: string | null;
  startedAt: number | null;
}

interface PositionInfo {
  id: string;
  title: string;
  method: string;
  seats: number;
  question: string | null;
  allowAbstain: boolean;
  startTime: number;
  endTime: number;
  electionId: number;
}

type Statement = { sql: string; args: (string | number | null)[] };

async function rows<T>(database: Database, sql: string, args: (string | number | null)[] = []): Promise<T[]> {
  const r = await database.client.execute({ sql, args });
  return r.rows as unknown as T[];
}

export async function getVerifiable(database: Database, positionId: string): Promise<VerifiableRow | null> {
  const [r] = await rows<{ position_id: string; uuid: string; state: BeleniosState; election_json: string | null; started_at: number | null }>(
    database,
    "SELECT position_id, uuid, state, election_json, started_at FROM belenios_positions WHERE position_id = ?",
    [positionId],
  );
  return r ? { positionId: r.position_id, uuid: r.uuid, state: r.state, electionJson: r.election_json, startedAt: r.started_at } : null;
}

type BeleniosInfo = { uuid: string; state: BeleniosState; election?: string; answerIds?: string[] | null };

/**
 * `belenios` of every verifiable position, by position id: uuid and state, and from the lock the
 * election text and the candidate ids in its answers' order, so a voter's device can encrypt a
 * ballot (offline too) without downloading the archive.
 */
export async function verifiableStates(database: Database): Promise<Map<string, BeleniosInfo>> {
  const list = await rows<{ position_id: string; uuid: string; state: BeleniosState; election_json: string | null; answer_ids: string | null }>(
    database,
    "SELECT position_id, uuid, state, election_json, answer_ids FROM belenios_positions",
  );
  return new Map(
    list.map((r) => [
      r.position_id,
      {
        uuid: r.uuid,
        state: r.state,
        ...(r.election_json ? { election: r.election_json, answerIds: r.answer_ids ? (JSON.parse(r.answer_ids) as string[]) : null } : {}),
      },
    ]),
  );
}

/** Adds `belenios` to the verifiable ones of a position list. */
export function withBelenios<T extends { _id: string }>(list: T[], states: Map<string, BeleniosInfo>): T[] {
  return list.map((p) => {
    const b = states.get(p._id);
    return b ? { ...p, belenios: b } : p;
  });
}

/** The locked verifiable positions, for the public Ballot Box page (their titles are public on the results too). */
export async function lockedVerifiable(database: Database): Promise<{ positionId: string; title: string; uuid: string; state: BeleniosState }[]> {
  const list = await rows<{ position_id: string; title: string; uuid: string; state: BeleniosState }>(
    database,
    "SELECT b.position_id, p.title, b.uuid, b.state FROM belenios_positions b JOIN positions p ON p.id = b.position_id WHERE b.state <> 'setup' ORDER BY p.start_time, p.created_at",
  );
  return list.map((r) => ({ positionId: r.position_id, title: r.title, uuid: r.uuid, state: r.state }));
}

async function positionInfo(database: Database, positionId: string): Promise<PositionInfo | null> {
  const [p] = await rows<{
    id: string;
    title: string;
    method: string;
    seats: number;
    question: string | null;
    allow_abstain: number;
    start_time: number;
    end_time: number;
    election_id: number;
  }>(database, "SELECT id, title, method, seats, question, allow_abstain, start_time, end_time, election_id FROM positions WHERE id = ?", [positionId]);
  if (!p) return null;
  return {
    id: p.id,
    title: p.title,
    method: p.method,
    seats: Number(p.seats),
    question: p.question,
    allowAbstain: Number(p.allow_abstain) === 1,
    startTime: Number(p.start_time),
    endTime: Number(p.end_time),
    electionId: Number(p.election_id),
  };
}

const idCache = new WeakMap<Database, Promise<Set<string>>>();

/** Whether a position is verifiable, from memory (every vote asks); set-up writes call forgetVerifiableIds. */
export async function isVerifiablePosition(database: Database, positionId: string): Promise<boolean> {
  let ids = idCache.get(database);
  if (!ids) {
    ids = rows<{ position_id: string }>(database, "SELECT position_id FROM belenios_positions").then((r) => new Set(r.map((x) => x.position_id)));
    idCache.set(database, ids);
  }
  return (await ids).has(positionId);
}

export function forgetVerifiableIds(database: Database): void {
  idCache.delete(database);
}

/**
 * Turns a position verifiable (a fresh uuid) or back to ordinary, before its lock. The caller
 * has checked that the position exists; a ranked position is refused.
 */
export async function setVerifiable(database: Database, positionId: string, on: boolean, method: string): Promise<void> {
  const current = await getVerifiable(database, positionId);
  if (on && method === "ranked") fail(400, verifiableMessages.ranked);
  if (current && current.state !== "setup" && !on) fail(409, verifiableMessages.locked);
  if (on && !current) {
    await database.writer.submit([{ sql: "INSERT INTO belenios_positions (position_id, uuid) VALUES (?, ?)", args: [positionId, generateUuid()] }]);
  } else if (!on && current) {
    await database.writer.submit([
      { sql: "DELETE FROM belenios_credentials WHERE position_id = ?", args: [positionId] },
      { sql: "DELETE FROM belenios_positions WHERE position_id = ?", args: [positionId] },
    ]);
  }
  forgetVerifiableIds(database);
}

/** A locked verifiable position refuses edits to its candidates and ballot (409). */
export async function assertNotLocked(database: Database, positionId: string): Promise<void> {
  const v = await getVerifiable(database, positionId);
  if (v && v.state !== "setup") fail(409, verifiableMessages.locked);
}

// ---- trustees

export interface TrusteeView {
  id: number;
  name: string;
  server: boolean;
  publicKey: string;
  /** The account that registered it (null for trustees added before accounts were recorded). */
  userId: string | null;
}

async function currentElectionId(database: Database): Promise<number> {
  const [r] = await rows<{ id: number }>(database, "SELECT max(id) AS id FROM elections");
  return Number(r?.id ?? 1);
}

/** The trustees in the order they were added: trustee id N is the N-th. */
export async function listTrustees(database: Database, electionId?: number): Promise<TrusteeView[]> {
  const id = electionId ?? (await currentElectionId(database));
  const list = await rows<{ name: string; server: number; public_key: string; user_id: string | null }>(
    database,
    "SELECT name, server, public_key, user_id FROM belenios_trustees WHERE election_id = ? ORDER BY id",
    [id],
  );
  return list.map((t, i) => ({ id: i + 1, name: t.name, server: Number(t.server) === 1, publicKey: t.public_key, userId: t.user_id ?? null }));
}

async function anyLocked(database: Database, electionId: number): Promise<boolean> {
  const [r] = await rows<{ n: number }>(
    database,
    "SELECT count(*) AS n FROM belenios_positions b JOIN positions p ON p.id = b.position_id WHERE p.election_id = ? AND b.state <> 'setup'",
    [electionId],
  );
  return Number(r.n) > 0;
}

/** The server's trustee key for an election, derived from the ballot key and never stored. */
export function serverTrusteeKey(keys: Keys, electionId: number): bigint {
  const a = createHmac("sha256", keys.seal).update(`belenios-trustee|${electionId}|a`).digest("hex");
  const b = createHmac("sha256", keys.seal).update(`belenios-trustee|${electionId}|b`).digest("hex");
  return BigInt(`0x${a}${b}`) % Q;
}

export async function addTrustee(
  database: Database,
  keys: Keys,
  input: { name: string; publicKey?: string; server?: boolean },
  by: { id: string; admin: boolean },
): Promise<TrusteeView> {
  const electionId = await currentElectionId(database);
  const name = input.name.trim();
  if (!name || name.length > 100) fail(400, verifiableMessages.trusteeName);
  if (input.server && !by.admin) fail(403, verifiableMessages.serverTrusteeAdminOnly);
  if (await anyLocked(database, electionId)) fail(409, verifiableMessages.trusteesFrozen);
  if (!by.admin && (await listTrustees(database, electionId)).some((t) => t.userId === by.id)) fail(409, verifiableMessages.oneTrusteePerObserver);
  let publicKey: string;
  if (input.server) {
    if ((await listTrustees(database, electionId)).some((t) => t.server)) fail(409, verifiableMessages.serverTrusteeTwice);
    publicKey = serializeTrusteeKey(proveKnowledge(serverTrusteeKey(keys, electionId)));
  } else {
    let key: TrusteePublicKey | null;
    try {
      key = parseTrusteeKey(input.publicKey ?? "");
    } catch {
      key = null;
    }
    if (!key || !verifyTrusteeKey(key)) fail(400, verifiableMessages.badTrusteeKey);
    publicKey = serializeTrusteeKey(key);
  }
  await database.writer.submit([
    {
      sql: "INSERT INTO belenios_trustees (election_id, name, public_key, server, user_id) VALUES (?, ?, ?, ?, ?)",
      args: [electionId, name, publicKey, input.server ? 1 : 0, by.id],
    },
  ]);
  const list = await listTrustees(database, electionId);
  return list[list.length - 1];
}

// ---- credentials

export async function putCredentials(database: Database, positionId: string, credentials: unknown): Promise<number> {
  const v = await getVerifiable(database, positionId);
  if (!v) fail(404, verifiableMessages.notVerifiable);
  if (v.state !== "setup") fail(409, verifiableMessages.locked);
  if (!Array.isArray(credentials) || credentials.length === 0 || credentials.length > 200_000) fail(400, verifiableMessages.badCredentials);
  const list = credentials as unknown[];
  if (!list.every((c) => typeof c === "string") || new Set(list).size !== list.length) fail(400, verifiableMessages.badCredentials);
  // Each membership test is a 2048-bit exponentiation: a roll's worth would hold the event loop
  // for seconds, so the verifier thread runs them.
  if (!(await ballotVerifier().arePublicCredentials(list as string[]))) fail(400, verifiableMessages.badCredentials);
  // The check took a while: the position may have been locked (or made ordinary) meanwhile. The
  // lock is a board write, so asking again on the board settles it.
  return onBoard(positionId, async () => {
    const now = await getVerifiable(database, positionId);
    if (!now) fail(404, verifiableMessages.notVerifiable);
    if (now.state !== "setup") fail(409, verifiableMessages.locked);
    await database.writer.submit([
      { sql: "DELETE FROM belenios_credentials WHERE position_id = ?", args: [positionId] },
      ...(list as string[]).map((c) => ({ sql: "INSERT INTO belenios_credentials (position_id, credential) VALUES (?, ?)", args: [positionId, c] })),
    ]);
    return list.length;
  });
}

async function credentialList(database: Database, positionId: string): Promise<string[]> {
  const list = await rows<{ credential: string }>(database, "SELECT credential FROM belenios_credentials WHERE position_id = ? ORDER BY credential", [positionId]);
  return list.map((r) => r.credential);
}

const listCache = new WeakMap<Database, Map<string, Promise<string>>>();

/** One position's list: all of its public credentials read (some 6 MB for 10,000) and hashed. */
async function credentialListOf(database: Database, positionId: string): Promise<string> {
  const list = await rows<{ credential: string }>(database, "SELECT credential FROM belenios_credentials WHERE position_id = ?", [positionId]);
  // The one-shot hash costs least per call.
  return packCredentialList(list.map((r) => hash("sha256", r.credential, "hex").slice(0, 2 * CREDENTIAL_ENTRY_BYTES)));
}

/**
 * Per locked verifiable position, its public credentials' list for a polling station's booth
 * (shared credential.ts), public like the archive that holds them. The credentials are frozen
 * from the lock, so each list is made once per process: making one holds the event loop some
 * 50-90 ms for 10,000 voters (docs/performance.md), and every station's package carries it.
 */
export async function stationCredentialLists(database: Database): Promise<Record<string, string>> {
  const locked = await rows<{ position_id: string }>(database, "SELECT position_id FROM belenios_positions WHERE state <> 'setup'");
  let made = listCache.get(database);
  if (!made) listCache.set(database, (made = new Map()));
  const lists: Record<string, string> = {};
  for (const { position_id: positionId } of locked) {
    let list = made.get(positionId);
    if (!list) {
      const making = credentialListOf(database, positionId);
      made.set(positionId, making);
      making.catch(() => made.delete(positionId));
      list = making;
    }
    const text = await list;
    if (text) lists[positionId] = text;
  }
  return lists;
}

// ---- the board

/** The results' counter (services/results/results.ts bumpResultsVersionSql, which imports this module). */
const bumpResults: Statement = { sql: `UPDATE meta SET value = value + 1 WHERE key = '${RESULTS_VERSION}'`, args: [] };

const chains = new Map<string, Promise<unknown>>();

/** One writer per board at a time: each event names the one before it. */
function onBoard<T>(positionId: string, work: () => Promise<T>): Promise<T> {
  const before = chains.get(positionId) ?? Promise.resolve();
  const run = before.then(work, work);
  const settled = run.catch(() => undefined);
  chains.set(positionId, settled);
  void settled.then(() => {
    if (chains.get(positionId) === settled) chains.delete(positionId);
  });
  return run;
}

async function lastEvent(database: Database, positionId: string): Promise<{ seq: number; hash: string; height: number } | null> {
  const [seq] = await rows<{ seq: number | null }>(database, "SELECT max(seq) AS seq FROM belenios_records WHERE position_id = ?", [positionId]);
  if (seq?.seq === null || seq?.seq === undefined) return null;
  const [e] = await rows<{ hash: string; content: string }>(
    database,
    "SELECT hash, content FROM belenios_records WHERE position_id = ? AND kind = 'event' ORDER BY seq DESC LIMIT 1",
    [positionId],
  );
  return { seq: Number(seq.seq), hash: e.hash, height: (JSON.parse(e.content) as { height: number }).height };
}

function recordInserts(positionId: string, firstSeq: number, records: ArchiveRecord[]) {
  return records.map((r, i) => ({
    sql: "INSERT INTO belenios_records (position_id, seq, kind, hash, content) VALUES (?, ?, ?, ?, ?)",
    args: [positionId, firstSeq + i, r.kind, r.hash, r.content],
  }));
}


/** Appends one event (and its payloads) with other statements in the same commit. */
async function append(database: Database, positionId: string, type: EventType, payloads: string[], extra: Statement[] = []): Promise<void> {
  const last = await lastEvent(database, positionId);
  const records = eventRecords(last ? { hash: last.hash, height: last.height } : null, type, payloads);
  await database.writer.submit([...extra, ...recordInserts(positionId, (last?.seq ?? -1) + 1, records)]);
}

/** Records read for one page of a served archive: some 3 MB of ballots, a few milliseconds of work. */
const ARCHIVE_PAGE = 250;

/**
 * The board as its `.bel` file, a stream read a page of records at a time up to the last record
 * stored when it starts (the board only grows, so that is the board at one moment). Between pages
 * the event loop answers everything else: a public download of a 10,000-ballot box (some 140 MB)
 * never holds up a vote. The bytes are the database's as they are now: a row changed in the file is
 * served changed, for the chain check and the tool to refuse.
 */
export async function archiveStream(database: Database, positionId: string): Promise<ReadableStream<Uint8Array> | null> {
  const v = await getVerifiable(database, positionId);
  if (!v || v.startedAt === null) return null;
  const startedAt = v.startedAt;
  const [top] = await rows<{ seq: number | null }>(database, "SELECT max(seq) AS seq FROM belenios_records WHERE position_id = ?", [positionId]);
  const last = top?.seq ?? -1;
  let after = -1;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(archiveHeader(startedAt));
    },
    async pull(controller) {
      await new Promise((resolve) => setImmediate(resolve));
      const page = await rows<{ seq: number; kind: "data" | "event"; hash: string; content: string }>(
        database,
        "SELECT seq, kind, hash, content FROM belenios_records WHERE position_id = ? AND seq > ? AND seq <= ? ORDER BY seq LIMIT ?",
        [positionId, after, last, ARCHIVE_PAGE],
      );
      if (page.length === 0) return controller.close();
      after = Number(page[page.length - 1].seq);
      controller.enqueue(recordMembers(page, startedAt));
    },
  });
}

/** The whole `.bel` file in memory (the declaration keeps it in the election's archive). */
export async function archiveBytes(database: Database, positionId: string): Promise<Uint8Array | null> {
  const stream = await archiveStream(database, positionId);
  return stream && new Uint8Array(await new Response(stream).arrayBuffer());
}

export async function board(database: Database, positionId: string): Promise<{ fingerprint: string | null; trackers: string[] } | null> {
  const v = await getVerifiable(database, positionId);
  if (!v) return null;
  const last = await lastEvent(database, positionId);
  const trackers = await rows<{ tracker: string }>(database, "SELECT tracker FROM belenios_ballots WHERE position_id = ? ORDER BY tracker", [positionId]);
  return { fingerprint: last?.hash ?? null, trackers: trackers.map((t) => t.tracker) };
}

// ---- lock

/** The question, answers in the order GET /admin/positions lists the candidates, and their ids. */
async function questionFor(database: Database, p: PositionInfo): Promise<{ question: Question; answerIds: string[] | null }> {
  const blank = p.allowAbstain;
  if (p.method === "referendum") return { question: { answers: ["Yes", "No"], blank, min: 1, max: 1, question: p.question ?? p.title }, answerIds: null };
  const cands = await rows<{ id: string; name: string }>(database, "SELECT id, name FROM candidates WHERE position_id = ? ORDER BY created_at, name", [p.id]);
  if (cands.length === 0) fail(409, verifiableMessages.noCandidates);
  const max = p.method === "multi" ? Math.min(Math.max(1, p.seats), cands.length) : 1;
  return { question: { answers: cands.map((c) => c.name), blank, min: 1, max, question: p.title }, answerIds: cands.map((c) => c.id) };
}

/** Writes the Setup event: from then the position's ballot, trustees and credentials are frozen. */
export async function lockPosition(database: Database, positionId: string, now: number): Promise<VerifiableRow> {
  return onBoard(positionId, async () => {
    const v = await getVerifiable(database, positionId);
    if (!v) fail(404, verifiableMessages.notVerifiable);
    if (v.state !== "setup") fail(409, verifiableMessages.alreadyLocked);
    const p = (await positionInfo(database, positionId))!;
    const trustees = await listTrustees(database, p.electionId);
    if (trustees.length === 0) fail(409, verifiableMessages.noTrustees);
    const credentials = await credentialList(database, positionId);
    if (credentials.length === 0) fail(409, verifiableMessages.noCredentials);
    const keys = trustees.map((t) => parseTrusteeKey(t.publicKey));
    const { question, answerIds } = await questionFor(database, p);
    const electionJson = serializeElection({
      uuid: v.uuid,
      name: p.title,
      description: `CSC E-Voting: ${p.title}`,
      publicKey: combineKeys(keys),
      question,
    });
    const startedAt = Math.floor(now / 1000);
    const records = eventRecords(null, "Setup", setupPayloads(electionJson, serializeTrustees(keys), JSON.stringify(credentials)));
    await database.writer.submit([
      {
        sql: "UPDATE belenios_positions SET state = 'open', election_json = ?, answer_ids = ?, started_at = ? WHERE position_id = ? AND state = 'setup'",
        args: [electionJson, answerIds ? JSON.stringify(answerIds) : null, startedAt, positionId],
      },
      ...recordInserts(positionId, 0, records),
    ]);
    return { ...v, state: "open", electionJson, startedAt };
  });
}

/** At its start a verifiable position with trustees and credentials in locks itself. */
async function lockIfDue(database: Database, v: VerifiableRow, p: PositionInfo, now: number): Promise<VerifiableRow> {
  if (v.state !== "setup" || now < p.startTime) return v;
  try {
    return await lockPosition(database, v.positionId, now);
  } catch {
    return (await getVerifiable(database, v.positionId)) ?? v;
  }
}

// ---- ballots

const notOpen = (state: BeleniosState | undefined) => (state === "tallying" || state === "decrypted" ? verifiableMessages.ballotBoxClosed : verifiableMessages.notLocked);

/**
 * The checks and the write of one verifiable ballot; the caller has checked the voter may vote
 * here now. `stationId`: the polling station whose device encrypted it (on the participation
 * only, as for every station vote).
 */
export async function castVerifiableBallot(
  database: Database,
  keys: Keys,
  positionId: string,
  voterId: string,
  ballot: string,
  now: number,
  stationId: string | null = null,
): Promise<{ tracker: string; replay?: boolean }> {
  let v = await getVerifiable(database, positionId);
  if (!v) fail(400, verifiableMessages.notVerifiable);
  const p = (await positionInfo(database, positionId))!;
  v = await lockIfDue(database, v, p, now);
  if (v.state !== "open" || !v.electionJson) fail(409, notOpen(v.state));
  const electionJson = v.electionJson;
  const fingerprint = electionFingerprint(electionJson);
  const verdict = await ballotVerifier().verify(electionJson, fingerprint, ballot);
  if (!verdict.ok) fail(400, verdict.reason === "election" ? verifiableMessages.ballotOtherElection : `${verifiableMessages.ballotInvalid} ${verdict.message}.`);
  const [known] = await rows<{ n: number }>(database, "SELECT count(*) AS n FROM belenios_credentials WHERE position_id = ? AND credential = ?", [positionId, verdict.credential]);
  if (Number(known.n) === 0) fail(403, verifiableMessages.unknownCredential);
  return onBoard(positionId, async () => {
    const state = await getVerifiable(database, positionId);
    if (state?.state !== "open") fail(409, notOpen(state?.state));
    const [voted] = await rows<{ n: number }>(database, "SELECT count(*) AS n FROM participations WHERE position_id = ? AND voter_id = ?", [positionId, voterId]);
    if (Number(voted.n) > 0) {
      // The same ballot again (an outbox retry whose answer was lost): the same answer. A ballot
      // text is unique, since every encryption draws fresh randomness.
      const [same] = await rows<{ n: number }>(database, "SELECT count(*) AS n FROM belenios_ballots WHERE position_id = ? AND tracker = ?", [positionId, verdict.tracker]);
      if (Number(same.n) > 0) return { tracker: verdict.tracker, replay: true };
      fail(409, verifiableMessages.alreadyVoted);
    }
    const [used] = await rows<{ n: number }>(database, "SELECT count(*) AS n FROM belenios_ballots WHERE position_id = ? AND credential = ?", [positionId, verdict.credential]);
    if (Number(used.n) > 0) fail(409, verifiableMessages.credentialUsed);
    // The voter's participation (turnout, the voter's status, one ballot per voter) and the
    // credential's ballot row share nothing but this commit: the participation is keyed by voter,
    // sealed at every participation's one length, and holds no time (docs/security.md).
    await append(database, positionId, "Ballot", [ballot], [
      {
        sql: "INSERT INTO participations (voter_id, position_id, sealed_choice, station_id) VALUES (?, ?, ?, ?)",
        args: [voterId, positionId, sealVerifiableParticipation(keys, voterId, positionId), stationId],
      },
      { sql: "INSERT INTO belenios_ballots (position_id, credential, tracker) VALUES (?, ?, ?)", args: [positionId, verdict.credential, verdict.tracker] },
      // The turnout chart's hourly total, as every vote keeps it: it names no voter.
      { sql: "INSERT INTO turnout_hours (hour, votes) VALUES (?, 1) ON CONFLICT (hour) DO UPDATE SET votes = votes + 1", args: [hourOf(now)] },
      bumpResults,
    ]);
    return { tracker: verdict.tracker };
  });
}

// ---- the count

async function payloadOfLast(database: Database, positionId: string, type: EventType): Promise<string | null> {
  const events = await rows<{ content: string }>(database, "SELECT content FROM belenios_records WHERE position_id = ? AND kind = 'event' ORDER BY seq", [positionId]);
  const found = events.map((e) => JSON.parse(e.content) as { type: string; payload?: string }).filter((e) => e.type === type);
  const payload = found[found.length - 1]?.payload;
  if (!payload) return null;
  const [d] = await rows<{ content: string }>(database, "SELECT content FROM belenios_records WHERE position_id = ? AND hash = ? LIMIT 1", [positionId, payload]);
  return d?.content ?? null;
}

async function dataByHash(database: Database, positionId: string, hash: string): Promise<string | null> {
  const [d] = await rows<{ content: string }>(database, "SELECT content FROM belenios_records WHERE position_id = ? AND hash = ? LIMIT 1", [positionId, hash]);
  return d?.content ?? null;
}

async function tallyOf(database: Database, positionId: string): Promise<{ tallyJson: string; numTallied: number } | null> {
  const sized = await payloadOfLast(database, positionId, "EncryptedTally");
  if (!sized) return null;
  const s = JSON.parse(sized) as { num_tallied: number; encrypted_tally: string };
  const tallyJson = await dataByHash(database, positionId, s.encrypted_tally);
  return tallyJson ? { tallyJson, numTallied: s.num_tallied } : null;
}

/** Owners of the partial decryptions in, with their texts. */
async function partialDecryptions(database: Database, positionId: string): Promise<Map<number, string>> {
  const events = await rows<{ content: string }>(database, "SELECT content FROM belenios_records WHERE position_id = ? AND kind = 'event' ORDER BY seq", [positionId]);
  const out = new Map<number, string>();
  for (const e of events.map((x) => JSON.parse(x.content) as { type: string; payload?: string })) {
    if (e.type !== "PartialDecryption" || !e.payload) continue;
    const owned = JSON.parse((await dataByHash(database, positionId, e.payload)) ?? "{}") as { owner: number; payload: string };
    const text = await dataByHash(database, positionId, owned.payload);
    if (text) out.set(owned.owner, text);
  }
  return out;
}

/**
 * After the close and the offline grace: EndBallots and EncryptedTally, then the server
 * trustee's partial decryption when it is one, then Result when every trustee's is in.
 * Safe to call often; it does what is due and nothing twice.
 */
export async function advanceCount(database: Database, keys: Keys, positionId: string, now: number, graceMs: number): Promise<void> {
  const v = await getVerifiable(database, positionId);
  if (!v) return;
  const p = await positionInfo(database, positionId);
  if (!p) return;
  if (v.state === "setup") {
    await lockIfDue(database, v, p, now);
    return;
  }
  if (v.state === "open" && now > p.endTime + graceMs) {
    await onBoard(positionId, async () => {
      const cur = await getVerifiable(database, positionId);
      if (cur?.state !== "open") return;
      const ballotTexts = await rows<{ content: string }>(
        database,
        `SELECT r.content FROM belenios_records r WHERE r.position_id = ? AND r.kind = 'data' AND r.content LIKE '{"election_uuid"%' ORDER BY r.seq`,
        [positionId],
      );
      const election = parseElection(cur.electionJson!);
      const width = election.question.answers.length + (election.question.blank ? 1 : 0);
      const tally = encryptedTally(ballotTexts.map((b) => parseBallot(b.content)), width);
      const tallyJson = serializeEncryptedTally(tally);
      const n = ballotTexts.length;
      await append(database, positionId, "EndBallots", []);
      await append(database, positionId, "EncryptedTally", [tallyJson, JSON.stringify({ num_tallied: n, total_weight: n, encrypted_tally: sha256Hex(tallyJson) })], [
        { sql: "UPDATE belenios_positions SET state = 'tallying' WHERE position_id = ?", args: [positionId] },
        bumpResults,
      ]);
    });
  }
  const after = await getVerifiable(database, positionId);
  if (after?.state !== "tallying") return;
  const trustees = await listTrustees(database, p.electionId);
  const server = trustees.find((t) => t.server);
  if (server) {
    const tally = await tallyOf(database, positionId);
    if (tally && !(await partialDecryptions(database, positionId)).has(server.id)) {
      const x = serverTrusteeKey(keys, p.electionId);
      const pd = computePartialDecryption(electionFingerprint(after.electionJson!), x, parseTrusteeKey(server.publicKey).publicKey, parseEncryptedTally(tally.tallyJson));
      try {
        await submitPartialDecryption(database, positionId, server.id, decryptOutput(pd, server.id));
      } catch {
        // Another call submitted it meanwhile.
      }
    }
  }
}

/** Checks a trustee's partial decryption, appends it, and appends Result when it is the last one due. */
export async function submitPartialDecryption(
  database: Database,
  positionId: string,
  trusteeId: number,
  text: string,
  by: { id: string; admin: boolean } | null = null,
): Promise<{ remaining: number }> {
  return onBoard(positionId, async () => {
    const v = await getVerifiable(database, positionId);
    if (!v) fail(404, verifiableMessages.notVerifiable);
    if (v.state !== "tallying") fail(409, v.state === "decrypted" ? verifiableMessages.alreadyDecrypted : verifiableMessages.notTallying);
    const p = (await positionInfo(database, positionId))!;
    const trustees = await listTrustees(database, p.electionId);
    const trustee = trustees.find((t) => t.id === trusteeId);
    if (!trustee) fail(400, verifiableMessages.noSuchTrustee);
    if (by && !by.admin && trustee.userId !== by.id) fail(403, verifiableMessages.notYourTrustee);
    const done = await partialDecryptions(database, positionId);
    if (done.has(trusteeId)) fail(409, verifiableMessages.alreadyDecrypted);
    const tally = (await tallyOf(database, positionId))!;
    const fingerprint = electionFingerprint(v.electionJson!);
    let pd;
    try {
      pd = parsePartialDecryption(text);
    } catch (e) {
      fail(400, e instanceof BeleniosFormatError ? `${verifiableMessages.badPartialDecryption} ${e.message}.` : verifiableMessages.badPartialDecryption);
    }
    if (pd.owner !== undefined && pd.owner !== trusteeId) fail(400, verifiableMessages.badPartialDecryption);
    const tallyCiphertexts = parseEncryptedTally(tally.tallyJson);
    if (!verifyPartialDecryption(fingerprint, parseTrusteeKey(trustee.publicKey), tallyCiphertexts, pd)) fail(400, verifiableMessages.badPartialDecryption);
    const pdJson = decryptOutput(pd, trusteeId).split("\n");
    await append(database, positionId, "PartialDecryption", pdJson);
    done.set(trusteeId, pdJson[0]);
    const remaining = trustees.filter((t) => !done.has(t.id)).length;
    if (remaining === 0) {
      const counts = computeResult(
        tallyCiphertexts,
        trustees.map((t) => parsePartialDecryption(done.get(t.id)!)),
        tally.numTallied,
      );
      await append(database, positionId, "Result", [serializeResult(counts)], [
        { sql: "UPDATE belenios_positions SET state = 'decrypted' WHERE position_id = ?", args: [positionId] },
        bumpResults,
      ]);
    }
    return { remaining };
  });
}

/** The decrypted counts (blank first when the question allows it), once Result is in. */
export async function verifiedCounts(database: Database, positionId: string): Promise<{ answers: string[]; blank: boolean; counts: number[] } | null> {
  const v = await getVerifiable(database, positionId);
  if (v?.state !== "decrypted" || !v.electionJson) return null;
  const result = await payloadOfLast(database, positionId, "Result");
  if (!result) return null;
  const election = parseElection(v.electionJson);
  return { answers: election.question.answers, blank: election.question.blank, counts: (JSON.parse(result) as { result: number[][] }).result[0] };
}

export interface VerifiableTally {
  state: BeleniosState;
  ballots: number;
  fingerprint: string | null;
  /** Candidate ids in answer order (null: a referendum's Yes, No). */
  answerIds: string[] | null;
  blank: boolean;
  /** The Result's counts, blank first when allowed; null until every trustee has decrypted. */
  counts: number[] | null;
}

/** What the results show of each verifiable position: its ballot count, and its counts once decrypted. */
export async function verifiableTallies(database: Database): Promise<Map<string, VerifiableTally>> {
  const list = await rows<{ position_id: string; state: BeleniosState; answer_ids: string | null; election_json: string | null; ballots: number }>(
    database,
    `SELECT b.position_id, b.state, b.answer_ids, b.election_json,
            (SELECT count(*) FROM belenios_ballots x WHERE x.position_id = b.position_id) AS ballots
       FROM belenios_positions b`,
  );
  const out = new Map<string, VerifiableTally>();
  for (const r of list) {
    const last = await lastEvent(database, r.position_id);
    const counts = r.state === "decrypted" ? ((await verifiedCounts(database, r.position_id))?.counts ?? null) : null;
    out.set(r.position_id, {
      state: r.state,
      ballots: Number(r.ballots),
      fingerprint: last?.hash ?? null,
      answerIds: r.answer_ids ? (JSON.parse(r.answer_ids) as string[]) : null,
      blank: r.election_json ? parseElection(r.election_json).question.blank : false,
      counts,
    });
  }
  return out;
}

/** Titles of the current election's verifiable positions whose Result is not in yet (declaring waits for them). */
export async function awaitingDecryption(database: Database): Promise<string[]> {
  const list = await rows<{ title: string }>(
    database,
    `SELECT p.title FROM belenios_positions b JOIN positions p ON p.id = b.position_id
      WHERE p.election_id = (SELECT max(id) FROM elections) AND b.state IN ('open', 'tallying') ORDER BY p.start_time, p.title`,
  );
  return list.map((r) => r.title);
}
