-- `sessions` WITHOUT ROWID, its times kept to the hour (decision 0003, docs/security.md). As a
-- rowid table, sessions were stored in the order voters signed in, and `created_at`,
-- `expires_at` and `revoked_at` to the millisecond said when: for voters who sign in and vote at
-- once, close to a verifiable position's public board order. Keyed by the token's hash alone,
-- their storage order says nothing; the code writes hours (an expiry rounded up), and the rows
-- already there are coarsened the same way, but for a station device's token (an officer's),
-- whose exact times the station rules use. The rebuild drops the table's triggers: made again.
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_sessions` (
	`token_hash` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`revoked_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `__new_sessions`("token_hash", "user_id", "created_at", "expires_at", "revoked_at")
  SELECT s."token_hash", s."user_id",
         CASE WHEN EXISTS (SELECT 1 FROM `station_sessions` st WHERE st."login_token_hash" = s."token_hash")
              THEN s."created_at" ELSE s."created_at" - s."created_at" % 3600000 END,
         s."expires_at" + (3600000 - s."expires_at" % 3600000) % 3600000,
         CASE WHEN s."revoked_at" IS NULL OR EXISTS (SELECT 1 FROM `station_sessions` st WHERE st."login_token_hash" = s."token_hash")
              THEN s."revoked_at" ELSE s."revoked_at" - s."revoked_at" % 3600000 END
    FROM `sessions` s ORDER BY s."token_hash";--> statement-breakpoint
DROP TABLE `sessions`;--> statement-breakpoint
ALTER TABLE `__new_sessions` RENAME TO `sessions`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `sessions_user_idx` ON `sessions` (`user_id`);--> statement-breakpoint
CREATE TRIGGER `auth_version_session_update` AFTER UPDATE OF `revoked_at`, `expires_at`, `user_id`, `token_hash` ON `sessions` BEGIN INSERT INTO `meta` (`key`, `value`) VALUES ('auth_version', 1) ON CONFLICT (`key`) DO UPDATE SET `value` = `value` + 1; END;--> statement-breakpoint
CREATE TRIGGER `auth_version_session_delete` AFTER DELETE ON `sessions` BEGIN INSERT INTO `meta` (`key`, `value`) VALUES ('auth_version', 1) ON CONFLICT (`key`) DO UPDATE SET `value` = `value` + 1; END;
