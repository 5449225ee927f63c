/**
 * One log line per request, written when its answer is ready: id, method, route pattern, status,
 * duration (log.ts says what a line never holds). The id is a per-logger prefix and a counter,
 * set on the context (`requestId`) so an error logged while serving carries it too.
 */
import { randomBytes } from "node:crypto";
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../deps.ts";
import type { Logger } from "../log.ts";

export interface RequestLine {
  /** A fresh request id, or "" when request lines are not logged. */
  id(): string;
  /** Logs one answered request; `started` is its performance.now(). */
  write(id: string, method: string, route: string, status: number, started: number): void;
}

export function requestLines(log: Logger): RequestLine {
  const enabled = log.isLevelEnabled("info");
  const prefix = randomBytes(3).toString("hex");
  let seq = 0;
  return {
    id: () => (enabled ? `${prefix}-${(++seq).toString(36)}` : ""),
    write(id, method, route, status, started) {
      if (!enabled) return;
      log.info({ reqId: id, method, route, status, ms: Math.round((performance.now() - started) * 10) / 10 }, "request");
    },
  };
}

export function requestLog(lines: RequestLine): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    const id = lines.id();
    c.set("requestId", id);
    try {
      await next();
    } finally {
      lines.write(id, c.req.method, c.req.routePath, c.res.status, started);
    }
  };
}
