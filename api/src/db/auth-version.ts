/**
 * `meta.auth_version` moves whenever a session may have ended or a signed-in user changed:
 * a session revoked, re-dated or deleted; a user edited or deleted. Triggers keep it, so
 * every writer in every process moves it, whatever code path it takes. Each process's
 * session cache (services/sessions.ts) reads it at most once a second and forgets what it
 * holds when it moved: a revocation elsewhere takes effect here within that second.
 *
 * Created at open with IF NOT EXISTS (idempotent, no migration slot needed): the counter is a
 * cache signal, not data, and a database that lacks the triggers only loses the signal.
 */
export const AUTH_VERSION = "auth_version";

const bump = `INSERT INTO meta (key, value) VALUES ('${AUTH_VERSION}', 1) ON CONFLICT (key) DO UPDATE SET value = value + 1`;

export const authVersionTriggers = [
  `CREATE TRIGGER IF NOT EXISTS auth_version_session_update AFTER UPDATE OF revoked_at, expires_at, user_id, token_hash ON sessions BEGIN ${bump}; END`,
  `CREATE TRIGGER IF NOT EXISTS auth_version_session_delete AFTER DELETE ON sessions BEGIN ${bump}; END`,
  `CREATE TRIGGER IF NOT EXISTS auth_version_user_update AFTER UPDATE OF name, role, matric_number, email, password_hash, groups ON users BEGIN ${bump}; END`,
  `CREATE TRIGGER IF NOT EXISTS auth_version_user_delete AFTER DELETE ON users BEGIN ${bump}; END`,
];
