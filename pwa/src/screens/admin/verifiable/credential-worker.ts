/**
 * The credential authority's arithmetic and the slips' QR codes, in a Web Worker started by the
 * Credential Authority page (credential-run.ts): a public credential is a 2048-bit modular
 * exponentiation in BigInt, some 10 ms each, so a roll of 10,000 voters is minutes of work
 * that would otherwise hold the page. The private credentials live in this worker and that page
 * only, never on the server or the device's storage. Its own file in the build, cached like the
 * staff screens' chunks and never in the voter's precache (build/voter-precache.ts).
 */
import { create as qrCreate, toString as qrSvg } from "qrcode";
import { isEligible } from "@evoting/shared";
import { generateCredential, publicCredential } from "@evoting/shared/belenios";

export interface Slip {
  name: string;
  matricNumber: string;
  email: string | null;
  credential: string;
  /** The titles of the verifiable positions this credential votes in. */
  positions: string[];
}

export interface CredentialRun {
  slips: Slip[];
  /** Public credentials by position id. */
  publicCredentials: Map<string, string[]>;
}

/** What the work needs of a voter on the roll and of a verifiable position. */
export interface RollVoter {
  name: string;
  matricNumber: string;
  email: string | null;
  groups: string[];
}
export interface CredentialPosition {
  id: string;
  uuid: string;
  title: string;
  eligibleGroups: string[];
}

export type CredentialRequest =
  | { id: number; kind: "credentials"; voters: RollVoter[]; positions: CredentialPosition[] }
  | { id: number; kind: "qr"; credentials: string[] };

export type CredentialAnswer =
  | { id: number; kind: "progress"; done: number; total: number }
  | { id: number; kind: "credentials"; run: CredentialRun }
  | { id: number; kind: "qr"; codes: string[] }
  | { id: number; kind: "failed"; message: string };

/** How often the page hears of the work's progress. */
const PROGRESS_MS = 100;

/**
 * One private credential per voter who may vote in at least one of `positions`, and for each
 * such position its public credential for the position's uuid.
 */
export function makeCredentials(
  voters: readonly RollVoter[],
  positions: readonly CredentialPosition[],
  onProgress: (done: number, total: number) => void = () => {},
): CredentialRun {
  const publicCredentials = new Map(positions.map((p) => [p.id, [] as string[]]));
  const slips: Slip[] = [];
  let next = Date.now() + PROGRESS_MS;
  for (let i = 0; i < voters.length; i++) {
    const voter = voters[i];
    const theirs = positions.filter((p) => isEligible(p.eligibleGroups, voter.groups));
    if (theirs.length > 0) {
      const credential = generateCredential();
      for (const p of theirs) publicCredentials.get(p.id)!.push(publicCredential(credential, p.uuid));
      slips.push({ name: voter.name, matricNumber: voter.matricNumber, email: voter.email, credential, positions: theirs.map((p) => p.title) });
    }
    if (Date.now() >= next) {
      onProgress(i + 1, voters.length);
      next = Date.now() + PROGRESS_MS;
    }
  }
  onProgress(voters.length, voters.length);
  return { slips, publicCredentials };
}

/** Pixels per QR module in the PNG: a credential's code is 25 modules, 27 with the margin, so 108 px, shown at 112. */
const PNG_SCALE = 4;

type SyncReader = { readAsDataURL(blob: Blob): string };
const syncReader = (globalThis as unknown as { FileReaderSync?: new () => SyncReader }).FileReaderSync;

/**
 * A QR code as a small PNG's address. A PNG rather than an SVG: the page parses
 * each SVG image as a document of its own on its main thread, which for thousands of slips holds
 * it for minutes; a PNG is decoded off it. An SVG where this worker has no OffscreenCanvas.
 */
async function qrImage(credential: string): Promise<string> {
  if (typeof OffscreenCanvas === "undefined" || !syncReader) {
    const svg = await qrSvg(credential, { type: "svg", margin: 1, errorCorrectionLevel: "M" });
    return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
  }
  const { modules } = qrCreate(credential, { errorCorrectionLevel: "M" });
  const side = (modules.size + 2) * PNG_SCALE;
  const canvas = new OffscreenCanvas(side, side);
  const context = canvas.getContext("2d")!;
  context.fillStyle = "#fff";
  context.fillRect(0, 0, side, side);
  context.fillStyle = "#000";
  for (let row = 0; row < modules.size; row++) {
    for (let col = 0; col < modules.size; col++) {
      if (modules.get(row, col)) context.fillRect((col + 1) * PNG_SCALE, (row + 1) * PNG_SCALE, PNG_SCALE, PNG_SCALE);
    }
  }
  return new syncReader().readAsDataURL(await canvas.convertToBlob({ type: "image/png" }));
}

/** Each credential's QR code, as an image address, in the same order. */
export async function qrCodes(credentials: readonly string[]): Promise<string[]> {
  const codes: string[] = [];
  for (const credential of credentials) codes.push(await qrImage(credential));
  return codes;
}

/** Answers one request; `post` sends to the page. */
export async function handleCredentialRequest(request: CredentialRequest, post: (answer: CredentialAnswer) => void): Promise<void> {
  const { id } = request;
  try {
    if (request.kind === "credentials") {
      const run = makeCredentials(request.voters, request.positions, (done, total) => post({ id, kind: "progress", done, total }));
      post({ id, kind: "credentials", run });
    } else {
      post({ id, kind: "qr", codes: await qrCodes(request.credentials) });
    }
  } catch (error) {
    post({ id, kind: "failed", message: error instanceof Error ? error.message : "The credentials could not be made" });
  }
}

interface WorkerScope {
  addEventListener(type: "message", listener: (event: MessageEvent<CredentialRequest>) => void): void;
  postMessage(message: CredentialAnswer): void;
}

if (typeof window === "undefined" && typeof self !== "undefined") {
  const scope = self as unknown as WorkerScope;
  scope.addEventListener("message", (event) => void handleCredentialRequest(event.data, (answer) => scope.postMessage(answer)));
}
