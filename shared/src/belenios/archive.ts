import { BeleniosFormatError, sha256Hex } from "./group.ts";

/**
 * The public board in Belenios 2.0's archive format (specification 4.4): an old-style tar file,
 * never closed, whose first member BELENIOS is a header and whose other members are
 * `HASH.data.json` payloads and `HASH.event.json` events, HASH being the SHA-256 of the member's
 * bytes. Each event names its parent event, so the last event's hash fingerprints the whole board.
 */
export type EventType = "Setup" | "Ballot" | "EndBallots" | "EncryptedTally" | "PartialDecryption" | "Result";

export interface ArchiveRecord {
  kind: "data" | "event";
  hash: string;
  content: string;
}

export interface BoardEvent {
  parent?: string;
  height: number;
  type: EventType;
  payload?: string;
}

export function serializeEvent(e: BoardEvent): string {
  return JSON.stringify({
    ...(e.parent ? { parent: e.parent } : {}),
    height: e.height,
    type: e.type,
    ...(e.payload ? { payload: e.payload } : {}),
  });
}

export function dataRecord(content: string): ArchiveRecord {
  return { kind: "data", hash: sha256Hex(content), content };
}

/** The records that append one event: its payloads (in order, the event's own payload last) then the event. */
export function eventRecords(previous: { hash: string; height: number } | null, type: EventType, payloads: readonly string[]): ArchiveRecord[] {
  const data = payloads.map(dataRecord);
  const event: BoardEvent = {
    ...(previous ? { parent: previous.hash } : {}),
    height: previous ? previous.height + 1 : 0,
    type,
    ...(data.length > 0 ? { payload: data[data.length - 1].hash } : {}),
  };
  const content = serializeEvent(event);
  return [...data, { kind: "event", hash: sha256Hex(content), content }];
}

/** The Setup payloads: election, trustees, public credentials, then the setup_data naming them. */
export function setupPayloads(electionJson: string, trusteesJson: string, credentialsJson: string): string[] {
  const setup = JSON.stringify({
    election: sha256Hex(electionJson),
    trustees: sha256Hex(trusteesJson),
    credentials: sha256Hex(credentialsJson),
  });
  return [electionJson, trusteesJson, credentialsJson, setup];
}

const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { fatal: true });
const BLOCK = 512;

function octal(value: number, width: number): string {
  return value.toString(8).padStart(width, "0");
}

/** The header fields every member of one archive shares: mode, owner, group, time and type. */
function headerTemplate(timestamp: number): Uint8Array {
  const header = new Uint8Array(BLOCK);
  const put = (offset: number, text: string) => encoder.encodeInto(text, header.subarray(offset));
  put(100, "0000644");
  put(108, "0000000");
  put(116, "0000000");
  put(136, octal(timestamp, 11));
  put(156, "0");
  return header;
}

/** A member's size in the archive: its header and its body padded to 512 bytes. */
function memberSize(body: Uint8Array): number {
  return BLOCK + Math.ceil(body.length / BLOCK) * BLOCK;
}

/**
 * Writes one member at `offset` of a zero-filled buffer, as the tool writes it: a v7 header (name,
 * size, the template's fields, then the checksum of the header with spaces in its place) and the
 * body, whose padding is the buffer's zeros. Returns where the next member starts.
 */
function writeMember(out: Uint8Array, offset: number, template: Uint8Array, name: string, body: Uint8Array): number {
  const header = out.subarray(offset, offset + BLOCK);
  header.set(template);
  encoder.encodeInto(name, header.subarray(0, 100));
  encoder.encodeInto(octal(body.length, 11), header.subarray(124));
  header.fill(32, 148, 156);
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += header[i];
  encoder.encodeInto(`${octal(sum, 6)}\0 `, header.subarray(148));
  out.set(body, offset + BLOCK);
  return offset + memberSize(body);
}

/** Members exactly as the tool writes them, in order, in one buffer: each body encoded once and copied once. */
export function tarMembers(members: readonly { name: string; content: string }[], timestamp: number): Uint8Array {
  const bodies = members.map((m) => encoder.encode(m.content));
  const out = new Uint8Array(bodies.reduce((n, b) => n + memberSize(b), 0));
  const template = headerTemplate(timestamp);
  let offset = 0;
  members.forEach((m, i) => (offset = writeMember(out, offset, template, m.name, bodies[i])));
  return out;
}

export function recordName(r: ArchiveRecord): string {
  return `${r.hash}.${r.kind}.json`;
}

/** The archive's first member, BELENIOS: its version and start time. */
export function archiveHeader(startTimestamp: number): Uint8Array {
  return tarMembers([{ name: "BELENIOS", content: JSON.stringify({ version: 1, timestamp: String(startTimestamp) }) }], startTimestamp);
}

/** Records as the archive's members, in board order (a whole board, or the next of its pages). */
export function recordMembers(records: readonly ArchiveRecord[], startTimestamp: number): Uint8Array {
  return tarMembers(records.map((r) => ({ name: recordName(r), content: r.content })), startTimestamp);
}

/** The whole `.bel` file: the header, then every record in board order. */
export function buildArchive(startTimestamp: number, records: readonly ArchiveRecord[]): Uint8Array {
  return concatBytes([archiveHeader(startTimestamp), recordMembers(records, startTimestamp)]);
}

export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
}

/** Reads the members of a `.bel` file (name and text), stopping at the end or at an all-zero block. */
export function readArchive(bytes: Uint8Array): { name: string; content: string }[] {
  const members: { name: string; content: string }[] = [];
  let offset = 0;
  while (offset + BLOCK <= bytes.length) {
    const header = bytes.subarray(offset, offset + BLOCK);
    if (header.every((b) => b === 0)) break;
    const nameEnd = header.indexOf(0);
    const name = decoder.decode(header.subarray(0, nameEnd < 0 || nameEnd > 100 ? 100 : nameEnd));
    const size = parseInt(decoder.decode(header.subarray(124, 135)), 8);
    if (!Number.isFinite(size) || offset + BLOCK + size > bytes.length) throw new BeleniosFormatError(`The archive member ${name} is cut short`);
    members.push({ name, content: decoder.decode(bytes.subarray(offset + BLOCK, offset + BLOCK + size)) });
    offset += BLOCK + Math.ceil(size / BLOCK) * BLOCK;
  }
  return members;
}

export interface ArchiveCheck {
  ok: boolean;
  /** The hash of the last event: the board's fingerprint. */
  fingerprint: string | null;
  events: BoardEvent[];
  problems: string[];
}

/**
 * The board's own integrity: every member's name is the hash of its bytes, every event's parent
 * is the event before it, heights count up from 0 and every payload precedes its event. It names
 * the first member that breaks a rule; the cryptography is `belenios-tool election verify`'s job.
 */
export function checkArchiveChain(bytes: Uint8Array): ArchiveCheck {
  const problems: string[] = [];
  const members = readArchive(bytes);
  if (members[0]?.name !== "BELENIOS") problems.push("The archive does not start with its BELENIOS header");
  const seen = new Set<string>();
  const events: BoardEvent[] = [];
  let last: { hash: string; height: number } | null = null;
  for (const m of members.slice(1)) {
    const match = /^([0-9a-f]{64})\.(data|event)\.json$/.exec(m.name);
    if (!match) {
      problems.push(`${m.name} is not a data or event member`);
      continue;
    }
    if (sha256Hex(m.content) !== match[1]) problems.push(`${m.name} does not match its hash: it was changed`);
    seen.add(match[1]);
    if (match[2] === "event") {
      const e = JSON.parse(m.content) as BoardEvent;
      if ((last?.hash ?? undefined) !== e.parent) problems.push(`${m.name} does not follow the event before it`);
      if (e.height !== (last ? last.height + 1 : 0)) problems.push(`${m.name} has height ${e.height}`);
      if (e.payload && !seen.has(e.payload)) problems.push(`${m.name} names a payload that is not before it`);
      events.push(e);
      last = { hash: match[1], height: e.height };
    }
  }
  return { ok: problems.length === 0, fingerprint: last?.hash ?? null, events, problems };
}
