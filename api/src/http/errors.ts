/** JSON errors `{ message, issues? }` with honest status codes (docs/architecture.md, Contracts). */
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { ZodError } from "zod";
import { messages } from "@evoting/shared";
import type { Logger } from "../log.ts";
import { HashQueueFull } from "../security/passwords.ts";

export function fail(status: ContentfulStatusCode, message: string, headers?: Record<string, string>): never {
  throw new HTTPException(status, { res: Response.json({ message }, { status, headers }) });
}

export function tooMany(waitMs: number, message: string = messages.tooManyAttempts): never {
  fail(429, message, { "Retry-After": String(Math.max(1, Math.ceil(waitMs / 1000))) });
}

/** What a body that failed its schema is answered (400): every issue, the first one's message on top. */
function validationBody(error: ZodError) {
  const issues = error.issues.map((i) => ({ path: i.path.join("."), message: i.message }));
  return { message: issues[0]?.message ?? "Invalid request", issues };
}

export function failValidation(error: ZodError): never {
  throw new HTTPException(400, { res: Response.json(validationBody(error), { status: 400 }) });
}

export function validationError(c: Context, error: ZodError) {
  return c.json(validationBody(error), 400);
}

/**
 * The answer to anything a request throws, for both ways a request is served (Hono's
 * `onError` and the fast path, http/pipeline.ts): a refusal's own JSON answer, 503 when the
 * sign-in queue is full, and 500 with no detail for a failure no rule explains (logged).
 */
export function errorAnswer(err: unknown, log: Logger, requestId?: string): Response {
  if (err instanceof HTTPException) {
    const res = err.getResponse();
    if (res.headers.get("content-type")?.includes("application/json")) return res;
    return Response.json({ message: err.message || "Request failed" }, { status: err.status });
  }
  if (err instanceof HashQueueFull) return Response.json({ message: messages.serverBusy }, { status: 503, headers: { "Retry-After": "2" } });
  return Response.json(unexpectedError(log, err, requestId), { status: 500 });
}

export function onError(err: Error, c: Context, log: Logger) {
  return errorAnswer(err, log, c.get("requestId") as string | undefined);
}

/** A failure no rule explains: logged, and answered 500 with no detail. */
export function unexpectedError(log: Logger, err: unknown, requestId?: string): { message: string } {
  log.error({ reqId: requestId, err }, "unhandled error");
  return { message: messages.internalError };
}
