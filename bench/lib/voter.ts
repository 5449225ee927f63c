/**
 * One voter doing what the PWA does on polling day: check-user, login by date of birth,
 * positions, my-votes, one vote per open position (with an Idempotency-Key and the ballot
 * ticket), then results. 503/429 answers with Retry-After are honoured and retried (counted
 * as retries, not errors); any other failure is an error.
 */
import { randomUUID } from "node:crypto";
import { Latencies } from "./stats.ts";

export interface VoterTally {
  lat: Latencies;
  /** Latency of each call including its waits and retries: what the voter feels. */
  felt: Latencies;
  retries: Record<string, number>;
  errors: Record<string, number>;
  errorSamples: string[];
  /** Calls over 2 s: [kind, started at (ms since the process began), took ms]. */
  slow: [string, number, number][];
}

export const newTally = (): VoterTally => ({ lat: new Latencies(), felt: new Latencies(), retries: {}, errors: {}, errorSamples: [], slow: [] });

const MAX_RETRIES = 30;
const MAX_WAIT_S = 30;

async function call(
  t: VoterTally,
  kind: string,
  url: string,
  init: { method?: string; token?: string; json?: unknown; headers?: Record<string, string> },
  ok: (status: number) => boolean = (s) => s >= 200 && s < 300,
): Promise<unknown> {
  const started = performance.now();
  for (let attempt = 0; ; attempt++) {
    const t0 = performance.now();
    let status = 0;
    let text: string;
    let retryAfter: string | null = null;
    try {
      const res = await fetch(url, {
        method: init.method ?? (init.json === undefined ? "GET" : "POST"),
        headers: {
          ...(init.json === undefined ? {} : { "content-type": "application/json" }),
          ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
          ...init.headers,
        },
        body: init.json === undefined ? undefined : JSON.stringify(init.json),
        signal: AbortSignal.timeout(60_000),
      });
      status = res.status;
      retryAfter = res.headers.get("retry-after");
      text = await res.text();
    } catch (e) {
      text = String((e as Error).message);
    }
    const took = performance.now() - t0;
    t.lat.add(kind, took);
    if (took > 2000 && t.slow.length < 50) t.slow.push([kind, Math.round(t0), Math.round(took)]);
    if (ok(status)) {
      t.felt.add(kind, performance.now() - started);
      return text ? JSON.parse(text) : null;
    }
    if ((status === 503 || status === 429) && retryAfter && attempt < MAX_RETRIES) {
      const key = `${kind} ${status}`;
      t.retries[key] = (t.retries[key] ?? 0) + 1;
      const waitS = Math.min(MAX_WAIT_S, Number(retryAfter) || 1);
      // Jitter so a crowd told "2 s" does not come back in one instant.
      await new Promise((r) => setTimeout(r, waitS * 1000 * (0.5 + Math.random())));
      continue;
    }
    const key = `${kind} ${status || "network"}`;
    t.errors[key] = (t.errors[key] ?? 0) + 1;
    if (t.errorSamples.length < 10) t.errorSamples.push(`${key}: ${text.slice(0, 200)}`);
    return undefined;
  }
}

interface BallotPosition {
  _id: string;
  candidates: { _id: string }[];
  ballotTicket?: string;
}

/**
 * Returns true when the voter got all the way through. `clientAddress`: the device's address as
 * a trusted proxy reports it (X-Forwarded-For; the server runs with TRUST_PROXY=1), so a rush can
 * come from many devices rather than one (`bench/rush.ts --addresses=N`).
 */
export async function runVoter(base: string, matricNumber: string, dateOfBirth: string, t: VoterTally, clientAddress?: string): Promise<boolean> {
  const api = `${base}/api`;
  const device: Record<string, string> = clientAddress ? { "x-forwarded-for": clientAddress } : {};
  const check = await call(t, "check-user", `${api}/auth/check-user`, { json: { matricNumber }, headers: device });
  if (!check) return false;
  const login = (await call(t, "login", `${api}/auth/login`, { json: { matricNumber, dateOfBirth: Number(dateOfBirth) }, headers: device })) as
    | { token: string }
    | undefined;
  if (!login) return false;
  const token = login.token;
  const positions = (await call(t, "positions", `${api}/vote/positions`, { token, headers: device })) as BallotPosition[] | undefined;
  if (!positions) return false;
  if ((await call(t, "my-votes", `${api}/vote/my-votes`, { token, headers: device })) === undefined) return false;
  let ok = true;
  for (const p of positions) {
    const candidate = p.candidates[Math.floor(Math.random() * p.candidates.length)];
    if (!candidate) continue;
    const cast = await call(t, "vote", `${api}/vote`, {
      token,
      headers: { ...device, "idempotency-key": randomUUID() },
      json: { positionId: p._id, candidateId: candidate._id, ...(p.ballotTicket ? { ballotTicket: p.ballotTicket } : {}) },
    });
    if (cast === undefined) ok = false;
  }
  if ((await call(t, "results", `${api}/vote/results`, { token, headers: device })) === undefined) return false;
  return ok;
}
