-- An admin can disable an observer's or officer's account (api/src/routes/admin/staff.ts).
ALTER TABLE `users` ADD `disabled_at` integer;--> statement-breakpoint
-- Other processes drop their cached sessions when an account is disabled, as for any change
-- that ends its sessions (db/cache-versions.ts).
DROP TRIGGER IF EXISTS `auth_version_user_update`;--> statement-breakpoint
CREATE TRIGGER `auth_version_user_update` AFTER UPDATE OF `name`, `role`, `matric_number`, `email`, `password_hash`, `groups`, `disabled_at` ON `users` BEGIN INSERT INTO `meta` (`key`, `value`) VALUES ('auth_version', 1) ON CONFLICT (`key`) DO UPDATE SET `value` = `value` + 1; END;--> statement-breakpoint
-- The audit chain starts at 1: a row numbered below would be listed on the Audit Log page but
-- never verified. SQLite adds a CHECK only by rebuilding the table; its append-only triggers
-- go with the old table and are made again below.
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_audit_log` (
	`seq` integer PRIMARY KEY NOT NULL,
	`id` text NOT NULL,
	`at` integer NOT NULL,
	`actor_id` text,
	`actor_name` text NOT NULL,
	`actor_matric` text NOT NULL,
	`action` text NOT NULL,
	`target` text NOT NULL,
	`summary` text NOT NULL,
	`address` text NOT NULL,
	`prev_hash` text NOT NULL,
	`hash` text NOT NULL,
	CONSTRAINT "audit_log_seq_from_one" CHECK(seq >= 1)
);
--> statement-breakpoint
INSERT INTO `__new_audit_log`("seq", "id", "at", "actor_id", "actor_name", "actor_matric", "action", "target", "summary", "address", "prev_hash", "hash") SELECT "seq", "id", "at", "actor_id", "actor_name", "actor_matric", "action", "target", "summary", "address", "prev_hash", "hash" FROM `audit_log`;--> statement-breakpoint
DROP TABLE `audit_log`;--> statement-breakpoint
ALTER TABLE `__new_audit_log` RENAME TO `audit_log`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE UNIQUE INDEX `audit_log_id_unique` ON `audit_log` (`id`);--> statement-breakpoint
CREATE INDEX `audit_log_action_idx` ON `audit_log` (`action`,`seq`);--> statement-breakpoint
CREATE INDEX `audit_log_actor_idx` ON `audit_log` (`actor_matric`,`seq`);--> statement-breakpoint
CREATE TRIGGER `audit_log_no_update` BEFORE UPDATE ON `audit_log` BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
--> statement-breakpoint
CREATE TRIGGER `audit_log_no_delete` BEFORE DELETE ON `audit_log` BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
