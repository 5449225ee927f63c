-- Counters in `meta` that tell each process's in-memory caches that another process changed
-- what they hold (db/cache-versions.ts): every writer in every process moves them, whatever
-- code path it takes. `auth_version`: a session revoked, re-dated or deleted; a user edited or
-- deleted. `catalog_version`: a position or candidate added, deleted, or changed in what a vote
-- is checked against (tallies are not: the mixer moves them several times a second).
-- Databases made before this migration already hold these triggers (the server created them at
-- every open): each is dropped and made again, so every database ends with these definitions.
DROP TRIGGER IF EXISTS `auth_version_session_update`;
--> statement-breakpoint
CREATE TRIGGER `auth_version_session_update` AFTER UPDATE OF `revoked_at`, `expires_at`, `user_id`, `token_hash` ON `sessions` BEGIN INSERT INTO `meta` (`key`, `value`) VALUES ('auth_version', 1) ON CONFLICT (`key`) DO UPDATE SET `value` = `value` + 1; END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `auth_version_session_delete`;
--> statement-breakpoint
CREATE TRIGGER `auth_version_session_delete` AFTER DELETE ON `sessions` BEGIN INSERT INTO `meta` (`key`, `value`) VALUES ('auth_version', 1) ON CONFLICT (`key`) DO UPDATE SET `value` = `value` + 1; END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `auth_version_user_update`;
--> statement-breakpoint
CREATE TRIGGER `auth_version_user_update` AFTER UPDATE OF `name`, `role`, `matric_number`, `email`, `password_hash`, `groups` ON `users` BEGIN INSERT INTO `meta` (`key`, `value`) VALUES ('auth_version', 1) ON CONFLICT (`key`) DO UPDATE SET `value` = `value` + 1; END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `auth_version_user_delete`;
--> statement-breakpoint
CREATE TRIGGER `auth_version_user_delete` AFTER DELETE ON `users` BEGIN INSERT INTO `meta` (`key`, `value`) VALUES ('auth_version', 1) ON CONFLICT (`key`) DO UPDATE SET `value` = `value` + 1; END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `catalog_version_position_insert`;
--> statement-breakpoint
CREATE TRIGGER `catalog_version_position_insert` AFTER INSERT ON `positions` BEGIN INSERT INTO `meta` (`key`, `value`) VALUES ('catalog_version', 1) ON CONFLICT (`key`) DO UPDATE SET `value` = `value` + 1; END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `catalog_version_position_update`;
--> statement-breakpoint
CREATE TRIGGER `catalog_version_position_update` AFTER UPDATE OF `id`, `start_time`, `end_time`, `eligible_groups`, `allow_abstain` ON `positions` BEGIN INSERT INTO `meta` (`key`, `value`) VALUES ('catalog_version', 1) ON CONFLICT (`key`) DO UPDATE SET `value` = `value` + 1; END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `catalog_version_position_delete`;
--> statement-breakpoint
CREATE TRIGGER `catalog_version_position_delete` AFTER DELETE ON `positions` BEGIN INSERT INTO `meta` (`key`, `value`) VALUES ('catalog_version', 1) ON CONFLICT (`key`) DO UPDATE SET `value` = `value` + 1; END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `catalog_version_candidate_insert`;
--> statement-breakpoint
CREATE TRIGGER `catalog_version_candidate_insert` AFTER INSERT ON `candidates` BEGIN INSERT INTO `meta` (`key`, `value`) VALUES ('catalog_version', 1) ON CONFLICT (`key`) DO UPDATE SET `value` = `value` + 1; END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `catalog_version_candidate_update`;
--> statement-breakpoint
CREATE TRIGGER `catalog_version_candidate_update` AFTER UPDATE OF `id`, `name`, `position_id` ON `candidates` BEGIN INSERT INTO `meta` (`key`, `value`) VALUES ('catalog_version', 1) ON CONFLICT (`key`) DO UPDATE SET `value` = `value` + 1; END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `catalog_version_candidate_delete`;
--> statement-breakpoint
CREATE TRIGGER `catalog_version_candidate_delete` AFTER DELETE ON `candidates` BEGIN INSERT INTO `meta` (`key`, `value`) VALUES ('catalog_version', 1) ON CONFLICT (`key`) DO UPDATE SET `value` = `value` + 1; END;
