CREATE TABLE `belenios_ballots` (
	`position_id` text NOT NULL,
	`credential` text NOT NULL,
	`tracker` text NOT NULL,
	PRIMARY KEY(`position_id`, `credential`),
	FOREIGN KEY (`position_id`) REFERENCES `positions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `belenios_credentials` (
	`position_id` text NOT NULL,
	`credential` text NOT NULL,
	PRIMARY KEY(`position_id`, `credential`),
	FOREIGN KEY (`position_id`) REFERENCES `positions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `belenios_positions` (
	`position_id` text PRIMARY KEY NOT NULL,
	`uuid` text NOT NULL,
	`state` text DEFAULT 'setup' NOT NULL,
	`election_json` text,
	`answer_ids` text,
	`started_at` integer,
	FOREIGN KEY (`position_id`) REFERENCES `positions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `belenios_positions_uuid_unique` ON `belenios_positions` (`uuid`);--> statement-breakpoint
CREATE TABLE `belenios_records` (
	`position_id` text NOT NULL,
	`seq` integer NOT NULL,
	`kind` text NOT NULL,
	`hash` text NOT NULL,
	`content` text NOT NULL,
	PRIMARY KEY(`position_id`, `seq`),
	FOREIGN KEY (`position_id`) REFERENCES `positions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `belenios_trustees` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`election_id` integer NOT NULL,
	`name` text NOT NULL,
	`public_key` text NOT NULL,
	`server` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE `belenios_voters` (
	`position_id` text NOT NULL,
	`voter_id` text NOT NULL,
	PRIMARY KEY(`position_id`, `voter_id`),
	FOREIGN KEY (`position_id`) REFERENCES `positions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `mail_messages` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`send_id` text,
	`user_id` text NOT NULL,
	`kind` text NOT NULL,
	`to_address` text NOT NULL,
	`reset_id` text,
	`state` text DEFAULT 'queued' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_at` integer NOT NULL,
	`claimed_at` integer,
	`last_reply` text,
	`sent_at` integer,
	`outbox_file` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`send_id`) REFERENCES `mail_sends`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "mail_messages_state_check" CHECK(state IN ('queued', 'sending', 'sent', 'failed'))
);
--> statement-breakpoint
CREATE INDEX `mail_messages_due_idx` ON `mail_messages` (`state`,`next_at`);--> statement-breakpoint
CREATE INDEX `mail_messages_send_idx` ON `mail_messages` (`send_id`,`state`);--> statement-breakpoint
CREATE INDEX `mail_messages_user_idx` ON `mail_messages` (`user_id`,`kind`,`created_at`);--> statement-breakpoint
CREATE TABLE `mail_sends` (
	`id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`groups` text DEFAULT '[]' NOT NULL,
	`election_id` integer NOT NULL,
	`created_at` integer NOT NULL,
	`created_by` text NOT NULL,
	`recipients` integer NOT NULL,
	CONSTRAINT "mail_sends_kind_check" CHECK(kind IN ('invitation', 'reminder', 'results'))
);
--> statement-breakpoint
CREATE TABLE `password_resets` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`used_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `password_resets_user_idx` ON `password_resets` (`user_id`);