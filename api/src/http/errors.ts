/** JSON errors `{ message, issues? }` with honest status codes (DESIGN.md section 4). */
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { ZodError } from "zod";
import { messages } from "@evoting/shared";

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

export function onError(err: Error, c: Context) {
  if (err instanceof HTTPException) {
    const res = err.getResponse();
    if (res.headers.get("content-type")?.includes("application/json")) return res;
    return c.json({ message: err.message || "Request failed" }, err.status);
  }
  return c.json(unexpectedError(err), 500);
}

/** A failure no rule explains: logged, and answered 500 with no detail. */
export function unexpectedError(err: unknown): { message: string } {
  console.error("Unhandled error", err);
  return { message: messages.internalError };
}
