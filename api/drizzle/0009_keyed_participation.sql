-- A counted vote's Idempotency-Key lives on its participation (issue 13, eighth pass): the key
-- as the client sent it and the HMAC of (voter, key, body) that `idempotency_keys` held, so a
-- counted keyed vote writes one voter-keyed row instead of two plus an hour index. Null for a
-- vote sent without a key and for every vote counted before this migration (their rows in
-- `idempotency_keys` still replay until they expire). `idempotency_keys` keeps only refused
-- answers (409), written as such, so the cap on them runs when one is inserted.
ALTER TABLE `participations` ADD `idem_key` text;
--> statement-breakpoint
ALTER TABLE `participations` ADD `idem_fingerprint` text;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `idempotency_keys_refused_cap`;
--> statement-breakpoint
CREATE TRIGGER `idempotency_keys_refused_cap` AFTER INSERT ON `idempotency_keys`
WHEN NEW.`status` = 409
BEGIN
  DELETE FROM `idempotency_keys` WHERE `user_id` = NEW.`user_id` AND `key` IN (
    SELECT `key` FROM `idempotency_keys` WHERE `user_id` = NEW.`user_id` AND `status` = 409 AND `nonce` <> NEW.`nonce`
     ORDER BY `created_hour`, `key`
     LIMIT max(0, (SELECT count(*) FROM `idempotency_keys` WHERE `user_id` = NEW.`user_id` AND `status` = 409) - 32));
END;
