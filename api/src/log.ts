/**
 * The server's log: pino, one JSON line per event on stdout (level LOG_LEVEL, default info).
 *
 * What a line may hold: a request's id, method, route pattern (`/api/admin/voters/:id`, never
 * the path with its values or query string: a stream token travels in the query), status and
 * duration; never a user, an address, a token, a password, a date of birth or a choice. A
 * request line carries no user on purpose: a vote's line has a time to the millisecond, and
 * nothing stored ties a voter to a time finer than the hour (decision 0003). The redaction
 * below is a second line of defence for an object logged whole by mistake.
 */
import { pino, type DestinationStream, type Logger, type LevelWithSilent } from "pino";

export type { Logger };

const SECRET_FIELDS = ["token", "password", "currentPassword", "newPassword", "dateOfBirth", "choice", "candidateId", "authorization", "cookie"];

export function createLogger(level: LevelWithSilent = "info", stream?: DestinationStream): Logger {
  const logger = pino(
    {
      level,
      base: undefined, // no pid or hostname on every line: one process per log stream
      redact: { paths: [...SECRET_FIELDS, ...SECRET_FIELDS.map((f) => `*.${f}`)], censor: "[redacted]" },
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
