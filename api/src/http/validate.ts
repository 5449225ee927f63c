/**
 * Request validation with the project's error shape: a wrong media type is 415, malformed
 * JSON 400, a failed rule 400 with the rule's own message first. Each step is one function
 * that both ways a request is served call (the middleware here, and the fast path of
 * http/pipeline.ts): `checkJsonType`, `parseJson`, `checkSchema`, `idempotencyKeyOf`.
 */
import { zValidator } from "@hono/zod-validator";
import type { MiddlewareHandler, ValidationTargets } from "hono";
import type { ZodType, input, output } from "zod";
import { idempotencyKeySchema, messages } from "@evoting/shared";
import type { AppEnv } from "../deps.ts";
import { fail, failValidation, validationError } from "./errors.ts";

export function validate<T extends ZodType, Target extends keyof ValidationTargets>(target: Target, schema: T) {
  return zValidator(target, schema, (result, c) => {
    if (!result.success) return validationError(c, result.error as never);
  });
}

/** A JSON media type (`application/json`, `application/…+json`), parameters allowed. */
export const isJsonType = (type: string | undefined): boolean => /^application\/(.+\+)?json\b/i.test(type ?? "");

/** 415 unless the body is declared JSON. */
export function checkJsonType(contentType: string | undefined): void {
  if (!isJsonType(contentType)) fail(415, `${messages.unsupportedMediaType}: send application/json`);
}

const utf8 = new TextDecoder();

/** The body's JSON (UTF-8, a leading byte-order mark dropped, as `Request.json()` reads it), or 400. */
export function parseJson(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(utf8.decode(bytes));
  } catch {
    fail(400, messages.invalidJson);
  }
}

/** The value as the schema outputs it, or 400 with the schema's issues. */
export function checkSchema<T extends ZodType>(schema: T, value: unknown): output<T> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) failValidation(parsed.error);
  return parsed.data;
}

/** An `Idempotency-Key` header: absent, or a UUID (lower-cased); 400 otherwise. */
export function idempotencyKeyOf(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const parsed = idempotencyKeySchema.safeParse(header.trim());
  if (!parsed.success) fail(400, messages.idempotencyKeyInvalid);
  return parsed.data.toLowerCase();
}

/**
 * A JSON body, in order: its media type (before the body is read), its syntax, its schema;
 * then `c.req.valid("json")` holds the value.
 */
export function jsonBody<T extends ZodType>(schema: T): MiddlewareHandler<AppEnv, string, { in: { json: input<T> }; out: { json: output<T> } }> {
  return async (c, next) => {
    checkJsonType(c.req.header("content-type"));
    c.req.addValidatedData("json", checkSchema(schema, parseJson(new Uint8Array(await c.req.arrayBuffer()))) as object);
    await next();
  };
}
