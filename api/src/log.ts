/**
 * The server's log: pino, one JSON line per event on stdout (level LOG_LEVEL, default info).
 *
 * What a line may hold: a request's id, method, route pattern (`/api/admin/voters/:id`, never
 * the path with its values or query string: a stream token travels in the query), status and
 * duration; never a user, an address, a token, a password, a date of birth or a choice. A
 * request line carries no user on purpose: a vote's line has a time to the millisecond, and
 * nothing stored ties a voter to a time finer than the hour (decision 0003). No redaction
 * pass: it cost about as much as the line itself on every request, for fields no line has;
 * log.test.ts checks the lines of a sign-in and a vote instead.
 */
import { pino, type DestinationStream, type Logger, type LevelWithSilent } from "pino";

export type { Logger };

export function createLogger(level: LevelWithSilent = "info", stream?: DestinationStream): Logger {
  const logger = pino(
    {
      level,
      base: undefined, // no pid or hostname on every line: one process per log stream
      serializers: { err: pino.stdSerializers.err },
    },
    // Buffered: a vote's line costs a memory copy, not a write(2). Written out at least once
    // a second, and at exit (pino flushes its own destinations then).
    stream ?? pino.destination({ dest: 1, sync: false, minLength: 4096 }),
  );
  if (!stream) setInterval(() => logger.flush(), 1000).unref();
  return logger;
}

/** A logger that writes nothing (tests, scripts), unless they pass their own. */
export const silentLogger: Logger = pino({ level: "silent" });
