-- Polling stations (issue 14). A station is a staffed device where any voter can vote.
-- `ballots_taken` is a counter (no voter, no time): the results screen's "ballots per station".
CREATE TABLE `stations` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`created_at` integer NOT NULL,
	`revoked_at` integer,
	`ballots_taken` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
-- Who may staff a station: admins, observers or officers.
CREATE TABLE `station_officers` (
	`station_id` text NOT NULL REFERENCES `stations`(`id`) ON DELETE cascade,
	`user_id` text NOT NULL REFERENCES `users`(`id`) ON DELETE cascade,
	`assigned_at` integer NOT NULL,
	PRIMARY KEY(`station_id`, `user_id`)
);
--> statement-breakpoint
CREATE INDEX `station_officers_user_idx` ON `station_officers` (`user_id`);
--> statement-breakpoint
-- One officer's sign-in to a station on a device. Its ballot key is derived from the server
-- secret and this id, never stored; the officer's login session (by hash) bounds when a
-- ballot may have been cast (`login_expires_at` kept here: expired sessions are cleaned up).
CREATE TABLE `station_sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`station_id` text NOT NULL REFERENCES `stations`(`id`) ON DELETE cascade,
	`officer_id` text NOT NULL REFERENCES `users`(`id`) ON DELETE cascade,
	`login_token_hash` text NOT NULL,
	`login_expires_at` integer NOT NULL,
	`opened_at` integer NOT NULL,
	`closed_at` integer
);
--> statement-breakpoint
CREATE INDEX `station_sessions_station_idx` ON `station_sessions` (`station_id`);
--> statement-breakpoint
-- Each station ballot delivered, by the device's random ballot id: a replay answers from
-- `answer` (voter and per-position outcome, never a choice). WITHOUT ROWID and a random key,
-- so storage order says nothing about arrival order.
CREATE TABLE `station_ballots` (
	`id` text PRIMARY KEY NOT NULL,
	`station_id` text NOT NULL REFERENCES `stations`(`id`) ON DELETE cascade,
	`answer` text NOT NULL
) WITHOUT ROWID;
