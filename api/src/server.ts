/** Wires real dependencies and listens. Everything else is built by createApp(). */
import { existsSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { createApp } from "./app.ts";
import { ensureAdmin } from "./bootstrap.ts";
import { listen } from "./http/pipeline.ts";
import { systemClock } from "./clock.ts";
import { buildDeps, closeDeps } from "./context.ts";
import { openDatabase } from "./db/client.ts";
import { parseEnv } from "./env.ts";
import { createLogger } from "./log.ts";
import { pwaDist } from "./paths.ts";
import { loadKeys } from "./security/keys.ts";
import { serverKeyFile } from "./security/server-keys.ts";
import { keyPlacementWarning } from "./security/key-placement.ts";
import { resealLegacyChoices } from "./services/votes/legacy-choices.ts";

const env = parseEnv();
const log = createLogger(env.LOG_LEVEL);
const database = await openDatabase({ url: env.DATABASE_URL, authToken: env.DATABASE_AUTH_TOKEN, synchronous: env.DB_SYNCHRONOUS });
const keys = loadKeys({ secret: env.BALLOT_KEY, keyFile: serverKeyFile(env, database.filePath), log: (line) => log.warn(line) });
const keyWarning = keyPlacementWarning(env.BALLOT_KEY ? null : serverKeyFile(env, database.filePath), database.filePath);
if (keyWarning) log.warn(keyWarning);
const resealed = await resealLegacyChoices(database, keys);
if (resealed > 0) log.info(`Re-sealed ${resealed} participations written before fixed-length sealing.`);
// Printed on the console as it is, not logged: the generated password is shown once, to
// whoever starts the server, and never goes into a log line.
await ensureAdmin(database, { matricNumber: env.ADMIN_MATRIC, name: env.ADMIN_NAME, password: env.ADMIN_PASSWORD }, Date.now());

const deps = buildDeps(database, systemClock, keys, {
  sessionMs: env.SESSION_HOURS * 3_600_000,
  voteGraceMs: env.VOTE_GRACE_MINUTES * 60_000,
  trustProxy: env.TRUST_PROXY ? env.TRUST_PROXY_HOPS : 0,
  log,
  mail: { smtpUrl: env.SMTP_URL, from: env.MAIL_FROM, appUrl: env.APP_URL, reminderMs: env.REMINDER_HOURS * 3_600_000 },
});
if (!env.SMTP_URL) log.info(`No SMTP_URL: messages are written to ${deps.mail.transport.outboxDir} as .eml files.`);
if (!existsSync(pwaDist)) log.warn(`No built PWA at ${pwaDist}: run \`npm run build\`. Serving the API only.`);
const app = createApp(deps, { staticRoot: pwaDist });

const server = await listen(app, deps, { port: env.PORT, hostname: env.HOST });
log.info(`CSC E-Voting listening on http://${env.HOST}:${(server.address() as AddressInfo).port}`);
log.flush();

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  log.info(`${signal}: finishing queued writes and closing`);
  server.close();
  // The mixer applies what is due; smaller groups wait in the database for the next start.
  await closeDeps(deps);
  log.flush(() => process.exit(0));
}
process.on("SIGINT", () => void shutdown("SIGINT"));
process.on("SIGTERM", () => void shutdown("SIGTERM"));
