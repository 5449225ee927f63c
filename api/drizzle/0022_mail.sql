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