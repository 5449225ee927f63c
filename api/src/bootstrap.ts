/** Creates the first admin from the environment when no admin exists yet. */
import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Database } from "./db/client.ts";
import { users } from "./db/schema.ts";
import { createUser } from "./services/auth/users.ts";

export interface AdminSeed {
  matricNumber: string;
  name: string;
  password?: string;
}

// The console by default, not the log: a generated password is shown once to whoever starts the
// server and never goes into a log line.
export async function ensureAdmin(database: Database, seed: AdminSeed, now: number, log = console.log): Promise<void> {
  const existing = await database.db.select({ id: users.id }).from(users).where(eq(users.role, "admin")).limit(1);
  if (existing.length > 0) return;
  const password = seed.password ?? randomBytes(12).toString("base64url");
  const created = await createUser(database, { name: seed.name, matricNumber: seed.matricNumber, role: "admin", password }, now);
  if (!created) {
    throw new Error(`ADMIN_MATRIC ${seed.matricNumber} belongs to an existing voter; choose another matriculation number`);
  }
  if (!seed.password) {
    log(`Created admin ${seed.matricNumber} with the generated password: ${password}`);
    log("It is shown only this once. Sign in and change it in Settings.");
  } else {
    log(`Created admin ${seed.matricNumber} from ADMIN_PASSWORD.`);
  }
}
