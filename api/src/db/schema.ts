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
import { blob, check, index, integer, primaryKey, real, sqliteTable, text } from "drizzle-orm/sqlite-core";

export const users = sqliteTable("users", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  matricNumber: text("matric_number").notNull().unique(),
  role: text("role", { enum: ["admin", "observer", "officer", "voter"] }).notNull().default("voter"),
  email: text("email"),
  passwordHash: text("password_hash"),
  dobHash: text("dob_hash"),
  createdAt: integer("created_at").notNull(),
  /** JSON array of short group labels from the roll (position eligibility). */
  groups: text("groups").notNull().default("[]"),
  /** When an admin disabled this observer's or officer's account: it cannot sign in and has no session. */
  disabledAt: integer("disabled_at"),
}, (t) => [
  // Manage Voters' pages (api/drizzle/0003_roll.sql).
  index("users_voters_idx").on(t.matricNumber).where(sql`${t.role} NOT IN ('admin', 'observer', 'officer')`),
]);

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

/**
 * Every election the installation has held; the newest row is the current one (db/elections.ts).
 * Its title, subtitle and window follow election_settings while it runs and stay as they were
 * once it is declared or replaced. An install from before elections had one, election 1.
 */
export const elections = sqliteTable(
  "elections",
  {
    id: integer("id").primaryKey(),
    title: text("title").notNull(),
    subtitle: text("subtitle").notNull(),
    startTime: integer("start_time").notNull(),
    endTime: integer("end_time").notNull(),
    /** 'open' (current, writable), 'declared' (results frozen in election_archives), 'ended' (replaced before any vote). */
    state: text("state", { enum: ["open", "declared", "ended"] }).notNull().default("open"),
    createdAt: integer("created_at").notNull(),
    declaredAt: integer("declared_at"),
  },
  () => [check("elections_state_check", sql`state IN ('open', 'declared', 'ended')`)],
);

/**
 * A declared election's results as published, frozen (services/election/declare.ts): the
 * results CSV's bytes and SHA-256, and one JSON record of the sheet, each position's counts and
 * rounds, its counted-ballot (receipt) list, the settings and positions, and the audit chain's
 * head at the declaration. Holds no voter: receipt lists are sorted codes, as published.
 */
export const electionArchives = sqliteTable("election_archives", {
  electionId: integer("election_id")
    .primaryKey()
    .references(() => elections.id),
  declaredAt: integer("declared_at").notNull(),
  resultsCsv: blob("results_csv", { mode: "buffer" }).notNull(),
  resultsSha256: text("results_sha256").notNull(),
  auditSeq: integer("audit_seq").notNull(),
  auditHash: text("audit_hash").notNull(),
  record: text("record").notNull(),
  /**
   * HMAC under the server's key of every column above (services/election/archive-seal.ts): a row
   * rewritten by someone holding the database file but not the key fails wherever it is read.
   */
  mac: text("mac"),
});

export const positions = sqliteTable("positions", {
  id: text("id").primaryKey(),
  title: text("title").notNull(),
  startTime: integer("start_time").notNull(),
  endTime: integer("end_time").notNull(),
  createdAt: integer("created_at").notNull(),
  /** Tallies of 'no' and 'abstain' ballots (candidate and Yes votes: candidates.vote_count). */
  noCount: integer("no_count").notNull().default(0),
  abstainCount: integer("abstain_count").notNull().default(0),
  /** JSON array of roll groups allowed to vote here; '[]' means every voter. */
  eligibleGroups: text("eligible_groups").notNull().default("[]"),
  /** Whether the ballot offers an explicit 'Abstain'. */
  allowAbstain: integer("allow_abstain", { mode: "boolean" }).notNull().default(sql`0`),
  /** Ballot method (shared/src/ballot-methods.ts); 'single' is the spec's one mark. Frozen at the first vote. */
  method: text("method", { enum: ["single", "multi", "ranked", "referendum"] }).notNull().default("single"),
  /** Seats to fill (multi and ranked). */
  seats: integer("seats").notNull().default(1),
  /** A referendum's question; null otherwise. */
  question: text("question"),
  /** A referendum passes with Yes strictly above this share of Yes + No. */
  passThreshold: real("pass_threshold").notNull().default(0.5),
  /** Tally of referendum 'yes' ballots. */
  yesCount: integer("yes_count").notNull().default(0),
  /** Ballots of a multi position (its candidates' tallies count marks, several per ballot). */
  multiCount: integer("multi_count").notNull().default(0),
  /** Ranked: show the full count while voting is open (shared resolveLiveCount); off shows first preferences until the close. */
  liveCount: integer("live_count", { mode: "boolean" }).notNull().default(sql`0`),
  /**
   * The election it belongs to; its candidates, ballots and participations belong there through
   * it. No foreign key: SQLite cannot add one to an existing table with a default of 1.
   */
  electionId: integer("election_id").notNull().default(1),
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
    /** Plain text, up to 2,000 characters; never rendered as HTML. */
    manifesto: text("manifesto"),
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
    /**
     * AES-256-GCM sealed {kind, candidateId, ballotId}, padded to one length, bound to voter
     * and position (services/votes/cast.ts). No time: a voter's row is never finer than a ballot's.
     */
    sealedChoice: text("sealed_choice").notNull(),
    /** The polling station the vote was cast at; null from the voter's own device. */
    stationId: text("station_id"),
    /**
     * The Idempotency-Key that counted this vote, as sent, and the HMAC of (voter, key, body)
     * under the ballot key (services/votes/cast.ts): a replay of the key is answered from this row.
     * Null for a vote sent without a key, and for votes counted before migration 0009.
     */
    idemKey: text("idem_key"),
    idemFingerprint: text("idem_fingerprint"),
  },
  // No index by position (migration 0010): voters vote in no order, so its entries went to a
  // random page each. What asks by position reads pending ballots and tallies (services/election/ballot-freeze.ts).
  (t) => [primaryKey({ columns: [t.voterId, t.positionId] })],
);

export const ballots = sqliteTable(
  "ballots",
  {
    id: text("id").primaryKey(),
    positionId: text("position_id")
      .notNull()
      .references(() => positions.id, { onDelete: "cascade" }),
    /** 'candidate' (also Yes on an unopposed position), 'no', 'abstain', or (ballot methods) 'yes', 'multi', 'ranked'. */
    choice: text("choice", { enum: ["candidate", "no", "abstain", "yes", "multi", "ranked"] }).notNull().default("candidate"),
    /** The candidate whose tally the ballot raised (shared `talliedCandidate`): a single choice, a ranking's first preference; else null. */
    candidateId: text("candidate_id").references(() => candidates.id, { onDelete: "cascade" }),
    /** Multi and ranked: the candidate ids in the voter's order, JSON padded to the position's capacity (shared `encodeMarks`); else null. */
    marks: text("marks"),
    /**
     * HMAC under the server's `ballot` key of (id, position, choice, candidate): an edit to any
     * of them is caught by the integrity check without the participations (services/
     * accountability/ballot-integrity.ts). Null only for ballots applied before migration 0013.
     * No time: the turnout chart's hours are `turnout_hours`, which name no choice.
     */
    mac: text("mac"),
  },
  // No index (migration 0010): keyed by the random id, its entries went to a random page each.
  // Tallies answer by candidate; the audit recounts in one pass (services/accountability/tally-check.ts).
  () => [
    // Written in migration 0002; spelled with bare column names, as there, so a table that
    // drizzle-kit rebuilds under a temporary name keeps valid checks.
    check("ballots_choice_check", sql`choice IN ('candidate', 'no', 'abstain', 'yes', 'multi', 'ranked')`),
    // A single choice and a ranking's first preference raise one candidate's tally; multi and
    // ranked ballots carry their marks (migration 0016).
    check("ballots_candidate_check", sql`(choice IN ('candidate', 'ranked')) = (candidate_id IS NOT NULL)`),
    check("ballots_marks_check", sql`(choice IN ('multi', 'ranked')) = (marks IS NOT NULL)`),
  ],
);

/**
 * Refused answers (409) to keyed votes, and the answers of votes counted before migration 0009;
 * a counted vote's key is on its participation.
 */
export const idempotencyKeys = sqliteTable(
  "idempotency_keys",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    /**
     * HMAC of (voter, key, request body) under the ballot key: compares bodies without storing
     * the choice, and no two rows share a value however many voters chose alike.
     */
    fingerprint: text("fingerprint").notNull(),
    /** Which request wrote this row; the refused-answer cap never drops the row just written. */
    nonce: text("nonce").notNull(),
    status: integer("status").notNull(),
    /** Empty; rows written before answers were rebuilt from the participation hold the answer to replay, sealed and padded to one length. */
    sealedBody: text("sealed_body").notNull(),
    /** Start of the hour it was written: rows expire after 24 h (services/votes/cast.ts). */
    createdHour: integer("created_hour").notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] }), index("idempotency_keys_hour_idx").on(t.createdHour)],
);

/**
 * Ballots waiting for the mixer (services/votes/mixer.ts): written in the participation's commit,
 * sealed and fixed-length, applied to `ballots` and the tallies later in shuffled batches.
 */
export const pendingBallots = sqliteTable(
  "pending_ballots",
  {
    id: text("id").primaryKey(),
    positionId: text("position_id")
      .notNull()
      .references(() => positions.id, { onDelete: "cascade" }),
    sealed: text("sealed").notNull(),
  },
  (t) => [index("pending_ballots_position_idx").on(t.positionId)],
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
    /**
     * Set on the one row a new election leaves when it empties the room (kept so `rev` never
     * goes back): its change means "the room was emptied", which streams send as `reset`; it is
     * never shown as a message.
     */
    clearsRoom: integer("clears_room", { mode: "boolean" }).notNull().default(sql`0`),
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
 * The audit trail (api/src/services/accountability/audit-log.ts): append-only; `hash` = SHA-256 over the
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
  (t) => [
    index("audit_log_action_idx").on(t.action, t.seq),
    index("audit_log_actor_idx").on(t.actorMatric, t.seq),
    // The chain starts at 1: a row before it would be listed but never verified.
    check("audit_log_seq_from_one", sql`seq >= 1`),
  ],
);

/**
 * The audit chain's head (one row, id 1): its seq and hash with an HMAC under a key derived
 * from the server secret, written with every entry. Removing the newest entries leaves the
 * chain valid but not this row; a copy's editor without the key cannot re-sign it.
 */
export const auditAnchor = sqliteTable("audit_anchor", {
  id: integer("id").primaryKey(),
  seq: integer("seq").notNull(),
  hash: text("hash").notNull(),
  mac: text("mac").notNull(),
});

/**
 * Polling stations (api/drizzle/0006_stations.sql): a station, its officers, each
 * officer's sign-in to it on a device, and each delivered station ballot (for exact replays).
 */
export const stations = sqliteTable("stations", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  createdAt: integer("created_at").notNull(),
  revokedAt: integer("revoked_at"),
  ballotsTaken: integer("ballots_taken").notNull().default(0),
});

export const stationOfficers = sqliteTable(
  "station_officers",
  {
    stationId: text("station_id")
      .notNull()
      .references(() => stations.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    assignedAt: integer("assigned_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.stationId, t.userId] }), index("station_officers_user_idx").on(t.userId)],
);

export const stationSessions = sqliteTable(
  "station_sessions",
  {
    id: text("id").primaryKey(),
    stationId: text("station_id")
      .notNull()
      .references(() => stations.id, { onDelete: "cascade" }),
    officerId: text("officer_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    loginTokenHash: text("login_token_hash").notNull(),
    loginExpiresAt: integer("login_expires_at").notNull(),
    openedAt: integer("opened_at").notNull(),
    closedAt: integer("closed_at"),
    /** An admin reported this device lost: its ballots arriving after are held for the committee. */
    lostAt: integer("lost_at"),
    /**
     * JSON ballot ids still queued on the device when it closed this session itself: after
     * that, only these can count, so the key (if copied) makes no new ballot that counts.
     * NULL when the session ended otherwise (revoked, unassigned, sign-in expired).
     */
    closedPending: text("closed_pending"),
  },
  (t) => [index("station_sessions_station_idx").on(t.stationId)],
);

export const stationBallots = sqliteTable("station_ballots", {
  id: text("id").primaryKey(),
  stationId: text("station_id")
    .notNull()
    .references(() => stations.id, { onDelete: "cascade" }),
  /** JSON StationBallotAnswer: the voter and each position's outcome, never a choice. */
  answer: text("answer").notNull(),
});

/**
 * Ballots of a station device reported lost that reached the server afterwards, held sealed
 * (AES-GCM under the session's key, which only the server derives) until the election
 * committee accepts or rejects that device's ballots as a batch; the row goes with the
 * decision. `positions`: the position ids the ballot chose in, for per-position counts
 * (never a choice). WITHOUT ROWID and a random key, so storage order says nothing about arrival.
 */
export const disputedBallots = sqliteTable("disputed_ballots", {
  id: text("id").primaryKey(),
  sessionId: text("session_id")
    .notNull()
    .references(() => stationSessions.id, { onDelete: "cascade" }),
  sealed: text("sealed").notNull(),
  positions: text("positions").notNull(),
});

/**
 * Sign-in tries per account (api/drizzle/0007_signin.sql), shared by every process:
 * see security/throttle.ts. Written with raw SQL there (a conditional upsert).
 */
export const signinTries = sqliteTable(
  "signin_tries",
  {
    account: text("account").primaryKey(),
    address: text("address").notNull(),
    tries: integer("tries").notNull(),
    lastAt: integer("last_at").notNull(),
    lockedUntil: integer("locked_until").notNull().default(0),
    failedAt: integer("failed_at"),
  },
  (t) => [index("signin_tries_address_idx").on(t.address, t.failedAt)],
);

/** Realtime stream tokens already used once, until they would have expired. */
export const usedStreamTokens = sqliteTable("used_stream_tokens", {
  id: text("id").primaryKey(),
  expiresAt: integer("expires_at").notNull(),
});

/**
 * The election's settings, one row (id = 1), seeded with the spec's fixed election
 * (api/drizzle/0004_election.sql). Times are epoch ms, UTC.
 */
export const electionSettings = sqliteTable(
  "election_settings",
  {
    id: integer("id").primaryKey(),
    title: text("title").notNull(),
    subtitle: text("subtitle").notNull(),
    startTime: integer("start_time").notNull(),
    endTime: integer("end_time").notNull(),
    resultsVisibility: text("results_visibility", { enum: ["live", "after-close"] }).notNull().default("live"),
    ballotOrder: text("ballot_order", { enum: ["fixed", "random"] }).notNull().default("fixed"),
    /** A position with one candidate: 'single' (the spec, an ordinary vote) or 'yes-no'. */
    unopposed: text("unopposed", { enum: ["single", "yes-no"] }).notNull().default("single"),
    updatedAt: integer("updated_at").notNull(),
    /**
     * The smallest group of a position's ballots applied to its tallies together (the mixer):
     * 1 applies each ballot as it comes. A position's remainder is applied at its close.
     * 10 by default: a tally that moves by one ballot at a time ties that ballot to whoever
     * was just marked as voted (docs/decisions/0017-ballot-batch.md).
     */
    ballotBatch: integer("ballot_batch").notNull().default(10),
    /** The nomination window (shared/src/nominations.ts); both null when none is set. */
    nominationsStart: integer("nominations_start"),
    nominationsEnd: integer("nominations_end"),
  },
  () => [
    check("election_settings_one_row", sql`id = 1`),
    check("election_settings_visibility_check", sql`results_visibility IN ('live', 'after-close')`),
    check("election_settings_order_check", sql`ballot_order IN ('fixed', 'random')`),
    check("election_settings_unopposed_check", sql`unopposed IN ('single', 'yes-no')`),
    check("election_settings_window_check", sql`start_time < end_time`),
    check("election_settings_batch_check", sql`ballot_batch >= 1`),
  ],
);

/**
 * Applications to stand (shared/src/nominations.ts). Nothing here is about a vote. The photo is
 * stored like a candidate's (cleaned pixels in `photos`) and becomes the candidate's photo on
 * approval. A named proposer's or seconder's answer is 'pending', 'confirmed' or 'declined'.
 */
export const nominations = sqliteTable(
  "nominations",
  {
    id: text("id").primaryKey(),
    positionId: text("position_id")
      .notNull()
      .references(() => positions.id, { onDelete: "cascade" }),
    applicantId: text("applicant_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    manifesto: text("manifesto").notNull(),
    photoId: text("photo_id").references(() => photos.id, { onDelete: "set null" }),
    proposerId: text("proposer_id").references(() => users.id, { onDelete: "set null" }),
    proposerAnswer: text("proposer_answer", { enum: ["pending", "confirmed", "declined"] }),
    seconderId: text("seconder_id").references(() => users.id, { onDelete: "set null" }),
    seconderAnswer: text("seconder_answer", { enum: ["pending", "confirmed", "declined"] }),
    state: text("state", { enum: ["awaiting", "submitted", "approved", "rejected", "withdrawn"] }).notNull(),
    reason: text("reason"),
    candidateId: text("candidate_id").references(() => candidates.id, { onDelete: "set null" }),
    createdAt: integer("created_at").notNull(),
    decidedAt: integer("decided_at"),
  },
  (t) => [
    index("nominations_position_idx").on(t.positionId),
    index("nominations_applicant_idx").on(t.applicantId),
    index("nominations_proposer_idx").on(t.proposerId),
    index("nominations_seconder_idx").on(t.seconderId),
    check("nominations_state_check", sql`state IN ('awaiting', 'submitted', 'approved', 'rejected', 'withdrawn')`),
  ],
);

/**
 * Votes counted per hour (the turnout chart): a total per hour, raised in each vote's own
 * commit, naming no voter and no choice. Ballots carry no time.
 */
export const turnoutHours = sqliteTable("turnout_hours", {
  hour: integer("hour").primaryKey(),
  votes: integer("votes").notNull().default(0),
});

/**
 * Each run of the integrity check (services/accountability/ballot-integrity.ts): at a
 * position's close, at declaration, or on demand from the Admin Panel. `problems` is a JSON
 * array of sentences, empty when it passed.
 */
export const integrityChecks = sqliteTable("integrity_checks", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  at: integer("at").notNull(),
  trigger: text("trigger", { enum: ["close", "declaration", "admin", "start"] }).notNull(),
  ok: integer("ok", { mode: "boolean" }).notNull(),
  problems: text("problems").notNull().default("[]"),
});

/**
 * Mail (services/mail): each notice an admin sent (`mail_sends`), and every message queued,
 * one row per recipient (`mail_messages`), sent in the background by the mail queue. A
 * message's text is written when it is sent, from its kind and the election; no row holds a
 * message body, a link's token, a date of birth or anything about a vote.
 */
export const mailSends = sqliteTable(
  "mail_sends",
  {
    id: text("id").primaryKey(),
    kind: text("kind", { enum: ["invitation", "reminder", "results"] }).notNull(),
    /** JSON array of the roll groups it was limited to; '[]' means every voter. */
    groups: text("groups").notNull().default("[]"),
    electionId: integer("election_id").notNull(),
    createdAt: integer("created_at").notNull(),
    createdBy: text("created_by").notNull(),
    recipients: integer("recipients").notNull(),
  },
  () => [check("mail_sends_kind_check", sql`kind IN ('invitation', 'reminder', 'results')`)],
);

export const mailMessages = sqliteTable(
  "mail_messages",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** The admin's send it belongs to; null for a password reset. */
    sendId: text("send_id").references(() => mailSends.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ["invitation", "reminder", "results", "password-reset"] }).notNull(),
    /** The address as it was when the message was queued. */
    toAddress: text("to_address").notNull(),
    /** A password reset's row in password_resets (its link is signed when the message is written). */
    resetId: text("reset_id"),
    /** 'queued' (waiting, or waiting for a retry), 'sending' (claimed), 'sent', 'failed'. */
    state: text("state", { enum: ["queued", "sending", "sent", "failed"] }).notNull().default("queued"),
    attempts: integer("attempts").notNull().default(0),
    /** Not before this time (epoch ms): a retry waits. */
    nextAt: integer("next_at").notNull(),
    claimedAt: integer("claimed_at"),
    /** The mail server's last reply to a failed try (or why it was not sent). */
    lastReply: text("last_reply"),
    sentAt: integer("sent_at"),
    /** The embedded default: the .eml file it was written to in outbox/. */
    outboxFile: text("outbox_file"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    index("mail_messages_due_idx").on(t.state, t.nextAt),
    index("mail_messages_send_idx").on(t.sendId, t.state),
    index("mail_messages_user_idx").on(t.userId, t.kind, t.createdAt),
    // Notify Voters lists the newest messages written to the outbox on every poll.
    index("mail_messages_outbox_idx").on(t.sentAt).where(sql`${t.outboxFile} IS NOT NULL`),
    check("mail_messages_state_check", sql`state IN ('queued', 'sending', 'sent', 'failed')`),
  ],
);

/**
 * Password resets asked for by email: the link carries this id signed under the server's key
 * (security/keys.ts signToken), so the table holds nothing that works as a link by itself.
 */
export const passwordResets = sqliteTable(
  "password_resets",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: integer("created_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
    usedAt: integer("used_at"),
  },
  (t) => [index("password_resets_user_idx").on(t.userId)],
);

/** Small counters: `results_version` moves on every change that alters the results. */
export const meta = sqliteTable("meta", {
  key: text("key").primaryKey(),
  value: integer("value").notNull().default(0),
});

export const RESULTS_VERSION = "results_version";
/** Moves the results' counter: in the same write as any change that alters the results. */
export const bumpResultsVersionSql = `UPDATE meta SET value = value + 1 WHERE key = '${RESULTS_VERSION}'`;
export const nowSql = sql`(unixepoch() * 1000)`;

/**
 * Verifiable positions (DESIGN.md section 9, docs/verifiable.md): each is a Belenios 2.0
 * election of its own. A row here makes the position verifiable. `electionJson` is written at
 * the lock, with the trustees' combined key; from then the answers, trustees and credentials
 * are frozen. `state`: setup, open, tallying, decrypted.
 */
export const beleniosPositions = sqliteTable("belenios_positions", {
  positionId: text("position_id")
    .primaryKey()
    .references(() => positions.id, { onDelete: "cascade" }),
  uuid: text("uuid").notNull().unique(),
  state: text("state", { enum: ["setup", "open", "tallying", "decrypted"] }).notNull().default("setup"),
  electionJson: text("election_json"),
  /** The candidate ids in the question's answer order, JSON, written at the lock (null for a referendum). */
  answerIds: text("answer_ids"),
  /** Seconds since 1970: the archive header's timestamp and every tar member's, fixed at the lock. */
  startedAt: integer("started_at"),
});

/** The trustees of an election's verifiable positions, in the order they were added (trustee id = rank). */
export const beleniosTrustees = sqliteTable("belenios_trustees", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  electionId: integer("election_id").notNull(),
  name: text("name").notNull(),
  /** The trustee_public_key JSON (public key and proof of knowledge). */
  publicKey: text("public_key").notNull(),
  /** The server's own key, derived from the ballot key: never stored. */
  server: integer("server", { mode: "boolean" }).notNull().default(sql`0`),
  /** The account that registered the trustee: it may submit this trustee's partial decryption itself. */
  userId: text("user_id"),
});

/**
 * The public credentials a position accepts (the credential authority's upload). WITHOUT ROWID
 * (migration 0025): the upload's order is often the authority's voter list's.
 */
export const beleniosCredentials = sqliteTable(
  "belenios_credentials",
  {
    positionId: text("position_id")
      .notNull()
      .references(() => positions.id, { onDelete: "cascade" }),
    credential: text("credential").notNull(),
  },
  (t) => [primaryKey({ columns: [t.positionId, t.credential] })],
);

/**
 * The public board: the archive's records in order (payloads and events). Append-only; each
 * member's name is the SHA-256 of its content, and each event names the one before it.
 * WITHOUT ROWID (migration 0025): stored by board and `seq`, the positions' boards are not
 * interleaved as ballots came, which would pair one voter's ballots across positions.
 */
export const beleniosRecords = sqliteTable(
  "belenios_records",
  {
    positionId: text("position_id")
      .notNull()
      .references(() => positions.id, { onDelete: "cascade" }),
    seq: integer("seq").notNull(),
    kind: text("kind", { enum: ["data", "event"] }).notNull(),
    hash: text("hash").notNull(),
    content: text("content").notNull(),
  },
  (t) => [primaryKey({ columns: [t.positionId, t.seq] })],
);

/**
 * One ballot per credential. Written in the same commit as the ballot's board records and the
 * voter's participation (one per voter, as for every vote), but sharing no key with it: the
 * participation says that a voter voted here, this row which credential did, and nothing joins
 * them. Both tables are WITHOUT ROWID (migration 0025; `participations` always), so neither's
 * storage order follows the board's: a rowid table's order would line each voter up with a
 * ballot that a server trustee can decrypt.
 */
export const beleniosBallots = sqliteTable(
  "belenios_ballots",
  {
    positionId: text("position_id")
      .notNull()
      .references(() => positions.id, { onDelete: "cascade" }),
    credential: text("credential").notNull(),
    tracker: text("tracker").notNull(),
  },
  (t) => [primaryKey({ columns: [t.positionId, t.credential] })],
);
