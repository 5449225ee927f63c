/** JSON errors `{ message, issues? }` with honest status codes (DESIGN.md section 4). */
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { ZodError } from "zod";
import { messages } from "@evoting/shared";
import type { Logger } from "../log.ts";

export function fail(status: ContentfulStatusCode, message: string, headers?: Record<string, string>): never {
  throw new HTTPException(status, { res: Response.json({ message }, { status, headers }) });
}

export function tooMany(waitMs: number, message: string = messages.tooManyAttempts): never {
  fail(429, message, { "Retry-After": String(Math.max(1, Math.ceil(waitMs / 1000))) });
}

export function validationError(c: Context, error: ZodError) {
  const issues = error.issues.map((i) => ({ path: i.path.join("."), message: i.message }));
  return c.json({ message: issues[0]?.message ?? "Invalid request", issues }, 400);
}

export function onError(err: Error, c: Context, log: Logger) {
  if (err instanceof HTTPException) {
    const res = err.getResponse();
    if (res.headers.get("content-type")?.includes("application/json")) return res;
    return c.json({ message: err.message || "Request failed" }, err.status);
  }
  return c.json(unexpectedError(log, err, c.get("requestId") as string | undefined), 500);
}

/** A failure no rule explains: logged, and answered 500 with no detail. */
export function unexpectedError(log: Logger, err: unknown, requestId?: string): { message: string } {
  log.error({ reqId: requestId, err }, "unhandled error");
  return { message: messages.internalError };
}
