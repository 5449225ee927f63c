-- The audit trail: append-only, each row carries the hash of the one before (hash chain).
CREATE TABLE `audit_log` (
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
	`hash` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `audit_log_id_unique` ON `audit_log` (`id`);--> statement-breakpoint
CREATE INDEX `audit_log_action_idx` ON `audit_log` (`action`,`seq`);--> statement-breakpoint
CREATE INDEX `audit_log_actor_idx` ON `audit_log` (`actor_matric`,`seq`);
