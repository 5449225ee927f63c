/**
 * `npm run seed:demo`: a sample election in the configured database — four positions open
 * for the next eight hours (and the election window set to match), 2–4 candidates each with a photo, and 200 voters who sign in with
 * a date of birth. Prints a few sign-ins. Refuses to touch a database that already has
 * positions unless run with --force.
 */
import { randomUUID } from "node:crypto";
import { ensureAdmin } from "../bootstrap.ts";
import { openDatabase } from "../db/client.ts";
import { positions } from "../db/schema.ts";
import { parseEnv } from "../env.ts";
import { avatarPng } from "../services/election/avatar.ts";
import { bumpResultsVersionSql } from "../services/results/results.ts";
import { loadKeys } from "../security/keys.ts";
import { serverKeyFile } from "../security/server-keys.ts";
import { createUser } from "../services/auth/users.ts";

const ELECTION: [string, string[]][] = [
  ["President", ["Adaeze Okafor", "Tunde Bakare", "Chiamaka Eze"]],
  ["Vice President", ["Ibrahim Musa", "Ngozi Adeyemi"]],
  ["General Secretary", ["Emeka Nwosu", "Fatima Bello", "Kelechi Obi", "Zainab Lawal"]],
  ["Financial Secretary", ["Segun Afolabi", "Blessing Udo"]],
];
const FIRST = ["Ada", "Bola", "Chidi", "Dayo", "Efe", "Funke", "Gbenga", "Halima", "Ife", "Jide", "Kemi", "Lola", "Musa", "Nneka", "Obinna", "Poly", "Rita", "Sade", "Tobi", "Uche"];
const LAST = ["Okoro", "Adewale", "Ibe", "Danjuma", "Eze", "Hassan", "Nwankwo", "Ogun", "Salami", "Yusuf"];
const VOTERS = 200;

const env = parseEnv();
const database = await openDatabase({ url: env.DATABASE_URL, authToken: env.DATABASE_AUTH_TOKEN });
// Dates of birth are stored under the server's key (security/passwords.ts): the same key the server loads.
const keys = loadKeys({ secret: env.BALLOT_KEY, keyFile: serverKeyFile(env, database.filePath) });
const now = Date.now();
await ensureAdmin(database, { matricNumber: env.ADMIN_MATRIC, name: env.ADMIN_NAME, password: env.ADMIN_PASSWORD }, now);

if ((await database.db.$count(positions)) > 0 && !process.argv.includes("--force")) {
  console.log("This database already has positions; nothing seeded. Use `npm run seed:demo -- --force` to add another election.");
  database.close();
  process.exit(0);
}

const statements = [];
let hue = 0;
for (const [index, [title, names]] of ELECTION.entries()) {
  const positionId = randomUUID();
  statements.push({
    sql: "INSERT INTO positions (id, title, start_time, end_time, created_at) VALUES (?, ?, ?, ?, ?)",
    args: [positionId, title, now - 60_000, now + 8 * 3_600_000, now + index],
  });
  for (const name of names) {
    const photoId = randomUUID();
    hue = (hue + 47) % 360;
    statements.push(
      { sql: "INSERT INTO photos (id, mime, data, created_at) VALUES (?, 'image/png', ?, ?)", args: [photoId, avatarPng(hue), now] },
      {
        sql: "INSERT INTO candidates (id, position_id, name, photo_id, vote_count, created_at) VALUES (?, ?, ?, ?, 0, ?)",
        args: [randomUUID(), positionId, name, photoId, now],
      },
    );
  }
}
// The election's own window matches its positions: the first screen must not say it ended above open ballots.
statements.push({ sql: "UPDATE election_settings SET start_time = ?, end_time = ?, updated_at = ? WHERE id = 1", args: [now - 60_000, now + 8 * 3_600_000, now] });
statements.push(bumpResultsVersionSql);
await database.writer.submit(statements);

const samples: string[] = [];
// Matric numbers 2021/5570NNNN from a random block, so a forced re-seed rarely collides.
const base = 1000 * (1 + Math.floor(Math.random() * 8));
let created = 0;
for (let i = 0; i < VOTERS; i += 20) {
  // Hash in small parallel groups: argon2 runs on the thread pool.
  const group = await Promise.all(
    Array.from({ length: Math.min(20, VOTERS - i) }, (_, j) => {
      const n = i + j;
      const matricNumber = `2021/5570${base + n}`;
      const dob = `${1998 + (n % 7)}${String((n % 12) + 1).padStart(2, "0")}${String((n % 28) + 1).padStart(2, "0")}`;
      const name = `${FIRST[n % FIRST.length]} ${LAST[Math.floor(n / FIRST.length) % LAST.length]}`;
      return createUser(database, { name, matricNumber, dateOfBirth: dob }, now, keys).then((u) => (u ? { matricNumber, dob, name } : null));
    }),
  );
  for (const u of group) {
    if (!u) continue;
    created++;
    if (samples.length < 5) samples.push(`  ${u.matricNumber}  date of birth ${u.dob}  (${u.name})`);
  }
}
await database.writer.submit([bumpResultsVersionSql]);
await database.writer.drain();
database.close();

console.log(`Seeded ${ELECTION.length} positions open until ${new Date(now + 8 * 3_600_000).toLocaleString()}, ${ELECTION.reduce((n, [, c]) => n + c.length, 0)} candidates with photos, ${created} voters.`);
console.log("Sign in as a voter with, for example:");
console.log(samples.join("\n"));
console.log(`Admin: ${env.ADMIN_MATRIC} with ADMIN_PASSWORD (or the password printed at first start).`);
