/**
 * Validators wrapping @hono/zod-validator so handlers keep `c.req.valid()` typed, with the
 * project's error shape: a wrong media type is 415, malformed JSON 400, a failed rule 400
 * with the rule's own message first.
 */
import { zValidator } from "@hono/zod-validator";
import type { ValidationTargets } from "hono";
import { createMiddleware } from "hono/factory";
import type { ZodType } from "zod";
import { messages } from "@evoting/shared";
import { fail, validationError } from "./errors.ts";

export function validate<T extends ZodType, Target extends keyof ValidationTargets>(target: Target, schema: T) {
  return zValidator(target, schema, (result, c) => {
    if (!result.success) return validationError(c, result.error as never);
  });
}

/** A JSON media type (`application/json`, `application/…+json`), parameters allowed. */
export const isJsonType = (type: string | undefined): boolean => /^application\/(.+\+)?json\b/i.test(type ?? "");

export const requireJson = createMiddleware(async (c, next) => {
  if (!isJsonType(c.req.header("content-type"))) fail(415, `${messages.unsupportedMediaType}: send application/json`);
  try {
    // Parse here so malformed JSON gets the project's message; Hono caches the parsed body.
    await c.req.json();
  } catch {
    fail(400, messages.invalidJson);
  }
  await next();
});

/** JSON body: media type, syntax, then the schema. */
export const jsonBody = <T extends ZodType>(schema: T) => [requireJson, validate("json", schema)] as const;
