/**
 * Database schema. Ballot secrecy shapes it (README, "Threat model"):
 * - `participations` records THAT a voter voted for a position (unique per voter and
 *   position), with their own choice sealed under the server's ballot key;
 * - `ballots` records WHAT was chosen (position, candidate, random id, hour), with no voter;
 * - both tables are WITHOUT ROWID with random or voter-keyed primary keys (see the
 *   migration), so storage order does not line a ballot up with its participation.
 * `candidates.vote_count` is a tally kept in the same write as the ballot, so results are
 * O(candidates); `npm run audit` recounts it from the ballots.
 */
import { sql } from "drizzle-orm";
import { blob, index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

export const users = sqliteTable("users", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  matricNumber: text("matric_number").notNull().unique(),
  role: text("role", { enum: ["admin", "observer", "officer", "voter"] }).notNull().default("voter"),
  email: text("email"),
  passwordHash: text("password_hash"),
  dobHash: text("dob_hash"),
  /** JSON array of short group labels from the roll (position eligibility). */
  groups: text("groups").notNull().default("[]"),
  createdAt: integer("created_at").notNull(),
});

export const sessions = sqliteTable(
  "sessions",
  {
    /** SHA-256 of the bearer token: a database copy holds no usable token. */
    tokenHash: text("token_hash").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: integer("created_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
    revokedAt: integer("revoked_at"),
  },
  (t) => [index("sessions_user_idx").on(t.userId)],
);

export const photos = sqliteTable("photos", {
  id: text("id").primaryKey(),
  mime: text("mime").notNull(),
  data: blob("data", { mode: "buffer" }).notNull(),
  createdAt: integer("created_at").notNull(),
});

export const positions = sqliteTable("positions", {
  id: text("id").primaryKey(),
  title: text("title").notNull(),
  startTime: integer("start_time").notNull(),
  endTime: integer("end_time").notNull(),
  createdAt: integer("created_at").notNull(),
});

export const candidates = sqliteTable(
  "candidates",
  {
    id: text("id").primaryKey(),
    positionId: text("position_id")
      .notNull()
      .references(() => positions.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    photoId: text("photo_id").references(() => photos.id, { onDelete: "set null" }),
    voteCount: integer("vote_count").notNull().default(0),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("candidates_position_idx").on(t.positionId)],
);

export const participations = sqliteTable(
  "participations",
  {
    voterId: text("voter_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    positionId: text("position_id")
      .notNull()
      .references(() => positions.id, { onDelete: "cascade" }),
    /** AES-256-GCM sealed {candidateId, candidateName}, bound to voter and position. */
    sealedChoice: text("sealed_choice").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.voterId, t.positionId] }), index("participations_position_idx").on(t.positionId)],
);

export const ballots = sqliteTable(
  "ballots",
  {
    id: text("id").primaryKey(),
    positionId: text("position_id")
      .notNull()
      .references(() => positions.id, { onDelete: "cascade" }),
    candidateId: text("candidate_id")
      .notNull()
      .references(() => candidates.id, { onDelete: "cascade" }),
    /** Start of the hour the ballot was cast: coarse on purpose. */
    castHour: integer("cast_hour").notNull(),
  },
  (t) => [index("ballots_candidate_idx").on(t.positionId, t.candidateId)],
);

export const idempotencyKeys = sqliteTable(
  "idempotency_keys",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    /** HMAC of the request body under the ballot key: compares bodies without storing the choice. */
    fingerprint: text("fingerprint").notNull(),
    /** Which request wrote this row; lets the same write batch tell its own row from another's. */
    nonce: text("nonce").notNull(),
    status: integer("status").notNull(),
    /** The answer to replay, sealed (it names the candidate). */
    sealedBody: text("sealed_body").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] })],
);

/**
 * The election chat (api/src/chat). `rev` is a room-wide change number: a post takes the next
 * one and a removal moves the message to the next one, so "everything after rev N" is both
 * the stream's resume point (Last-Event-ID) and what other processes poll for.
 */
export const chatMessages = sqliteTable(
  "chat_messages",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    rev: integer("rev").notNull().unique(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** Emptied when an administrator removes the message. */
    text: text("text").notNull(),
    createdAt: integer("created_at").notNull(),
    removedAt: integer("removed_at"),
    removedBy: text("removed_by"),
  },
  (t) => [index("chat_messages_user_idx").on(t.userId, t.createdAt)],
);

export const chatMutes = sqliteTable("chat_mutes", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  until: integer("until").notNull(),
  mutedBy: text("muted_by").notNull(),
  createdAt: integer("created_at").notNull(),
});

/**
 * The audit trail (api/src/services/audit-log.ts): append-only; `hash` = SHA-256 over the
 * previous row's hash and this row's fields, so a changed or removed row breaks the chain.
 * Never holds a secret, a date of birth, or anything about how someone voted.
 */
export const auditLog = sqliteTable(
  "audit_log",
  {
    seq: integer("seq").primaryKey(),
    id: text("id").notNull().unique(),
    at: integer("at").notNull(),
    actorId: text("actor_id"),
    actorName: text("actor_name").notNull(),
    actorMatric: text("actor_matric").notNull(),
    action: text("action").notNull(),
    target: text("target").notNull(),
    summary: text("summary").notNull(),
    address: text("address").notNull(),
    prevHash: text("prev_hash").notNull(),
    hash: text("hash").notNull(),
  },
  (t) => [index("audit_log_action_idx").on(t.action, t.seq), index("audit_log_actor_idx").on(t.actorMatric, t.seq)],
);

/** Small counters: `results_version` moves on every change that alters the results. */
export const meta = sqliteTable("meta", {
  key: text("key").primaryKey(),
  value: integer("value").notNull().default(0),
});

export const RESULTS_VERSION = "results_version";
export const nowSql = sql`(unixepoch() * 1000)`;
