/** Parses process.env once, with defaults from docs/architecture.md (Contracts, Run). Nothing else reads process.env. */
import { z } from "zod";

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default("127.0.0.1"),
  DATABASE_URL: z
    .string()
    .regex(/^(file:|libsql:|https?:|:memory:)/, "must start with file:, libsql:, http(s): or be :memory:")
    .default("file:data/evoting.db"),
  DATABASE_AUTH_TOKEN: z.string().optional(),
  ADMIN_MATRIC: z.string().regex(/^\d{4}\/5570\d+$/, "must look like 0000/5570000").default("0000/5570000"),
  ADMIN_PASSWORD: z.string().min(6, "must be at least 6 characters").max(128).optional(),
  ADMIN_NAME: z.string().min(1).max(120).default("Administrator"),
  /** Secret the ballot-sealing and token-signing keys derive from; hex or base64, ≥ 32 bytes. */
  BALLOT_KEY: z.string().min(32, "must be at least 32 characters of random hex or base64").optional(),
  /** Where the generated ballot key lives when BALLOT_KEY is unset (beside the database, never in it). */
  BALLOT_KEY_FILE: z.string().optional(),
  VOTE_GRACE_MINUTES: z.coerce.number().min(0).max(120).default(10),
  SESSION_HOURS: z.coerce.number().min(0.01).max(72).default(12),
  /** Take the client address from X-Forwarded-For (only behind your own proxy). */
  TRUST_PROXY: z
    .enum(["0", "1", "true", "false"])
    .default("0")
    .transform((v) => v === "1" || v === "true"),
  /**
   * How many proxies of yours append to X-Forwarded-For: the client is that many entries from
   * the right (entries further left are whatever the client sent, so never trusted).
   */
  TRUST_PROXY_HOPS: z.coerce.number().int().min(1).max(10).default(1),
  /** SQLite durability for the file database: FULL survives power loss, NORMAL only process crashes. */
  DB_SYNCHRONOUS: z.enum(["FULL", "NORMAL"]).default("FULL"),
  /** The server log's level (api/src/log.ts): one JSON line per request at info. */
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /**
   * The mail server (services/mail): smtp://[user:pass@]host:port (STARTTLS when offered) or
   * smtps:// (TLS from the start). Unset: messages are written as .eml files to outbox/
   * beside the database instead.
   */
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/[^\s]+$/, "must look like smtp://user:pass@host:587 or smtps://host:465")
    .optional(),
  MAIL_FROM: z.string().min(3).max(200).default("CSC E-Voting <no-reply@localhost>"),
  /** The public address links in messages point to; default http://HOST:PORT. */
  APP_URL: z
    .url({ protocol: /^https?$/, error: "must be an http(s) address like https://vote.example.edu" })
    .transform((v) => v.replace(/\/+$/, ""))
    .optional(),
  /** A voter gets at most one reminder in this many hours. */
  REMINDER_HOURS: z.coerce.number().min(0).max(720).default(6),
});

export type Env = z.infer<typeof envSchema> & { APP_URL: string };

export function parseEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    // Before any logger: LOG_LEVEL is itself one of the variables refused here.
    console.error(`Invalid environment:\n${lines.join("\n")}`);
    process.exit(1);
  }
  const data = parsed.data;
  return { ...data, APP_URL: data.APP_URL ?? `http://${data.HOST}:${data.PORT}` };
}
