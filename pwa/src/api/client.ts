/**
 * The one typed client for the API (docs/product.md's calls, docs/architecture.md's contracts). Every screen's data
 * comes through here (via queries.ts), so an offline layer can wrap these calls in one place.
 * Error bodies become `ApiRequestError`s here and nowhere else; a 401 signs the user out.
 */
import type {
  ApiError,
  Candidate,
  BallotPosition,
  CastVoteInput,
  CreatePositionInput,
  CheckUserResponse,
  LoginResponse,
  MyVote,
  Position,
  Results,
  Role,
  TokenResponse,
  UserProfile,
} from "@evoting/shared";
import { session } from "../auth/session";
import { ApiRequestError } from "../lib/api-error";

const configuredBase = import.meta.env.VITE_API_URL as string | undefined;
if (!configuredBase) {
  console.warn("VITE_API_URL is not set; using the default API base '/api'.");
}
export const API_BASE = (configuredBase ?? "/api").replace(/\/$/, "");

export { ApiRequestError, errorMessage } from "../lib/api-error";

interface RequestOptions {
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  body?: unknown;
  headers?: Record<string, string>;
  /** Sign-in calls answer 401 for bad credentials; that must not sign anyone out. */
  signOutOn401?: boolean;
  signal?: AbortSignal;
  /** `no-store` for what must come from the server itself (a vote, the votes it holds). */
  cache?: RequestCache;
}

/** An answer as it came, whatever its status: the outbox's sync engine decides what each means. */
export interface RawAnswer {
  status: number;
  body: unknown;
  /** The raw Retry-After header, if the server sent one. */
  retryAfter: string | null;
}

/** The one place a request to the API is made: the bearer token, the body, a 401 signs out. */
async function send(path: string, options: RequestOptions): Promise<Response> {
  const { method = "GET", body, signOutOn401 = true, signal, cache } = options;
  const headers: Record<string, string> = { Accept: "application/json", ...options.headers };
  const token = session.token();
  if (token) headers.Authorization = `Bearer ${token}`;

  let payload: BodyInit | undefined;
  if (body instanceof FormData) {
    payload = body; // the browser sets the multipart boundary
  } else if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    payload = JSON.stringify(body);
  }

  const response = await fetch(`${API_BASE}${path}`, { method, headers, body: payload, signal, ...(cache ? { cache } : {}) });
  if (response.status === 401 && signOutOn401 && token) session.clear();
  return response;
}

/** The answer's JSON; any status but 2xx is thrown as an `ApiRequestError`. */
export async function request<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const response = await send(path, options);
  await throwUnlessOk(response);
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

/** The answer's bytes (a CSV export); any status but 2xx is thrown as an `ApiRequestError`. */
export async function requestBlob(path: string, options: RequestOptions = {}): Promise<Blob> {
  const response = await send(path, { ...options, headers: { Accept: "*/*", ...options.headers } });
  await throwUnlessOk(response);
  return response.blob();
}

async function throwUnlessOk(response: Response): Promise<void> {
  if (!response.ok) {
    let parsed: unknown = null;
    try {
      parsed = await response.json();
    } catch {
      // Not JSON (a proxy's error page, a dropped connection): fall back below.
    }
    throw refusal(response.status, response.statusText, parsed);
  }
}

function refusal(status: number, statusText: string, body: unknown): ApiRequestError {
  const parsed = (body ?? {}) as Partial<ApiError>;
  const message = typeof parsed.message === "string" && parsed.message ? parsed.message : "";
  return new ApiRequestError(status, message || statusText || `HTTP ${status}`, Boolean(message), parsed.issues);
}

/** A raw answer's body when it is a 2xx; otherwise the same `ApiRequestError` `request` throws. */
export function answerBody<T>(answer: RawAnswer): T {
  if (answer.status >= 200 && answer.status < 300) return answer.body as T;
  throw refusal(answer.status, "", answer.body);
}

async function rawAnswer(path: string, options: RequestOptions): Promise<RawAnswer> {
  const response = await send(path, options);
  let body: unknown = null;
  try {
    body = await response.json();
  } catch {
    // A proxy's HTML error page or an empty body: the status still decides.
  }
  return { status: response.status, body, retryAfter: response.headers.get("Retry-After") };
}

export interface CastVoteRequest extends CastVoteInput {
  /** A fresh UUID per attempt of a vote, so a retry of the same vote is replayed, not doubled. */
  idempotencyKey: string;
}

export const api = {
  // auth
  checkUser: (matricNumber: string) =>
    request<CheckUserResponse>("/auth/check-user", { method: "POST", body: { matricNumber }, signOutOn401: false }),
  login: (body: { matricNumber: string; password: string } | { matricNumber: string; dateOfBirth: number }) =>
    request<LoginResponse>("/auth/login", { method: "POST", body, signOutOn401: false }),
  logout: () => request<void>("/auth/logout", { method: "POST", signOutOn401: false }),
  profile: () => request<UserProfile>("/auth/profile"),
  updateEmail: (email: string) => request<{ email: string }>("/auth/email", { method: "PUT", body: { email } }),
  updatePassword: (body: { currentPassword?: string; newPassword: string }) =>
    request<{ message: string }>("/auth/password", { method: "PUT", body }),

  // admin
  /** The baseline's voter payload (docs/product.md), plus groups, role and password (staff accounts). */
  createUser: (body: { name: string; matricNumber: string; dateOfBirth?: number; groups?: string[]; role?: Role; password?: string }) =>
    request<UserProfile>("/admin/users", { method: "POST", body }),
  createPosition: (body: CreatePositionInput) =>
    request<Position>("/admin/positions", { method: "POST", body }),
  createCandidate: (body: { name: string; positionId: string; photo?: File | null; manifesto?: string }) => {
    const form = new FormData();
    form.append("name", body.name);
    form.append("positionId", body.positionId);
    if (body.manifesto?.trim()) form.append("manifesto", body.manifesto); // optional, plain text
    if (body.photo) form.append("photo", body.photo);
    return request<Candidate>("/admin/candidates", { method: "POST", body: form });
  },
  adminPositions: () => request<Position[]>("/admin/positions"),
  adminCandidates: () => request<Candidate[]>("/admin/candidates"),
  deletePosition: (id: string) =>
    request<{ message: string }>(`/admin/positions/${encodeURIComponent(id)}`, { method: "DELETE" }),
  deleteCandidate: (id: string) =>
    request<{ message: string }>(`/admin/candidates/${encodeURIComponent(id)}`, { method: "DELETE" }),

  // voting and results
  ballotPositions: () => request<BallotPosition[]>("/vote/positions"),
  myVotes: (signal?: AbortSignal) => request<MyVote[]>("/vote/my-votes", { signal, cache: signal ? "no-store" : undefined }),
  /**
   * `POST /vote`, the one send of a vote: by the outbox's sync engine (offline/sync.ts), or by
   * data/cast-vote.ts when the device store is unavailable. The answer as it came, whatever its
   * status (`answerBody` reads it as `request` would).
   */
  sendVote: ({ idempotencyKey, ...body }: CastVoteRequest, signal?: AbortSignal) =>
    rawAnswer("/vote", { method: "POST", body, headers: { "Idempotency-Key": idempotencyKey }, signal, cache: "no-store" }),
  results: () => request<Results>("/vote/results"),
  chatToken: () => request<TokenResponse>("/vote/chat-token"),
  realtimeToken: () => request<TokenResponse>("/realtime/token"),
};

export type Api = typeof api;

/** The SSE address for a channel, authorised by a short-lived stream token. */
export function realtimeUrl(channel: string, token: string): string {
  const params = new URLSearchParams({ channel, token });
  return `${API_BASE}/realtime?${params.toString()}`;
}
