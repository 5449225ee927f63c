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

/** One tar member exactly as the tool writes it: a v7 header and the body padded to 512 bytes. */
export function tarMember(name: string, content: string, timestamp: number): Uint8Array {
  const body = encoder.encode(content);
  const padded = Math.ceil(body.length / BLOCK) * BLOCK;
  const out = new Uint8Array(BLOCK + padded);
  const put = (offset: number, text: string) => out.set(encoder.encode(text), offset);
  put(0, name);
  put(100, "0000644");
  put(108, "0000000");
  put(116, "0000000");
  put(124, octal(body.length, 11));
  put(136, octal(timestamp, 11));
  put(148, "        ");
  put(156, "0");
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += out[i];
  put(148, `${octal(sum, 6)}\0 `);
  out.set(body, BLOCK);
  return out;
}

export function recordName(r: ArchiveRecord): string {
  return `${r.hash}.${r.kind}.json`;
}

/** The whole `.bel` file: the header, then every record in board order. */
export function buildArchive(startTimestamp: number, records: readonly ArchiveRecord[]): Uint8Array {
  const parts = [
    tarMember("BELENIOS", JSON.stringify({ version: 1, timestamp: String(startTimestamp) }), startTimestamp),
    ...records.map((r) => tarMember(recordName(r), r.content, startTimestamp)),
  ];
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
