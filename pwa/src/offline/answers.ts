/**
 * How the sync engine reads a server answer: which ones end an item, which are retried, and
 * how long to wait before the next try (exponential backoff with jitter, at least as long as
 * the server's Retry-After).
 */
import type { MyVote } from "@evoting/shared";
import type { OutboxError } from "./db";

export interface SendResult {
  status: number;
  body: unknown;
  /** The raw Retry-After header, if the server sent one. */
  retryAfter?: string | null;
}

const RETRY_AFTER_CAP_MS = 60 * 60_000;

/** Retry-After as seconds or an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, now: number): number | null {
  if (!value) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Math.min(Number(trimmed) * 1000, RETRY_AFTER_CAP_MS);
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? null : Math.min(Math.max(0, at - now), RETRY_AFTER_CAP_MS);
}

/** Exponential backoff with equal jitter: half the step fixed, half random. */
export function backoffDelay(attempts: number, random: number, baseMs: number, maxMs: number): number {
  const step = Math.min(maxMs, baseMs * 2 ** Math.max(0, attempts - 1));
  return Math.round(step / 2 + (random * step) / 2);
}

export type Answer =
  | { kind: "delivered"; status: number; body: unknown }
  | { kind: "already-voted"; status: number; body: unknown }
  | { kind: "rejected"; status: number; body: unknown }
  | { kind: "auth"; status: number; body: unknown }
  | { kind: "retry"; error: OutboxError; retryAfterMs: number | null };

export function bodyMessage(body: unknown): string | null {
  const message = (body as { message?: unknown } | null)?.message;
  return typeof message === "string" && message ? message : null;
}

export function bodyVote(body: unknown, positionId: string): MyVote | null {
  const vote = (body as { vote?: Partial<MyVote> } | null)?.vote;
  if (!vote || typeof vote.candidateId !== "string" || vote.positionId !== positionId) return null;
  const choice = vote.choice === "no" || vote.choice === "abstain" || vote.choice === "yes" ? { choice: vote.choice } : {};
  const marks = Array.isArray(vote.candidateIds) ? { candidateIds: vote.candidateIds.map(String), candidateNames: (vote.candidateNames ?? []).map(String) } : {};
  return { positionId, candidateId: vote.candidateId, candidateName: vote.candidateName ?? "", ...choice, ...marks };
}

export function classify(result: SendResult | Error, now: number): Answer {
  if (result instanceof Error) {
    return { kind: "retry", error: { kind: "network", message: result.message || "Network error" }, retryAfterMs: null };
  }
  const { status, body } = result;
  if (status >= 200 && status < 300) return { kind: "delivered", status, body };
  if (status === 409) return { kind: "already-voted", status, body };
  if (status === 401) return { kind: "auth", status, body };
  const retryAfterMs = parseRetryAfter(result.retryAfter, now);
  const message = bodyMessage(body) ?? `HTTP ${status}`;
  if (status === 429 || status === 503) {
    return { kind: "retry", error: { kind: "busy", httpStatus: status, message }, retryAfterMs };
  }
  if (status >= 400 && status < 500 && status !== 408) return { kind: "rejected", status, body };
  // 408, 5xx, and anything that is not an answer to a vote (a captive portal's redirect).
  return { kind: "retry", error: { kind: "server", httpStatus: status, message }, retryAfterMs };
}
