-- The cap on a voter's refused answers (issue 9; api/src/services/idempotency.ts) as a trigger
-- (issue 13): it runs only when a keyed vote's own row is rewritten to 409, so a counted vote
-- no longer carries a statement that does nothing. Keeps MAX_REFUSED_ANSWERS (32) refused
-- answers per voter, dropping the oldest, never the one just written.
CREATE TRIGGER IF NOT EXISTS `idempotency_keys_refused_cap` AFTER UPDATE OF `status` ON `idempotency_keys`
WHEN NEW.`status` = 409 AND OLD.`status` <> 409
BEGIN
  DELETE FROM `idempotency_keys` WHERE `user_id` = NEW.`user_id` AND `key` IN (
    SELECT `key` FROM `idempotency_keys` WHERE `user_id` = NEW.`user_id` AND `status` = 409 AND `nonce` <> NEW.`nonce`
     ORDER BY `created_hour`, `key`
     LIMIT max(0, (SELECT count(*) FROM `idempotency_keys` WHERE `user_id` = NEW.`user_id` AND `status` = 409) - 32));
END;
