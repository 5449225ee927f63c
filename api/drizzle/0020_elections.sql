-- Elections: every election an installation holds, the newest current; a declared one's
-- results frozen in election_archives. The election an install already ran becomes election 1
-- (its title, subtitle and window from election_settings), and its positions are election 1's.
CREATE TABLE `election_archives` (
	`election_id` integer PRIMARY KEY NOT NULL,
	`declared_at` integer NOT NULL,
	`results_csv` blob NOT NULL,
	`results_sha256` text NOT NULL,
	`audit_seq` integer NOT NULL,
	`audit_hash` text NOT NULL,
	`record` text NOT NULL,
	FOREIGN KEY (`election_id`) REFERENCES `elections`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `elections` (
	`id` integer PRIMARY KEY NOT NULL,
	`title` text NOT NULL,
	`subtitle` text NOT NULL,
	`start_time` integer NOT NULL,
	`end_time` integer NOT NULL,
	`state` text DEFAULT 'open' NOT NULL,
	`created_at` integer NOT NULL,
	`declared_at` integer,
	CONSTRAINT "elections_state_check" CHECK(state IN ('open', 'declared', 'ended'))
);
--> statement-breakpoint
ALTER TABLE `positions` ADD `election_id` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
INSERT INTO `elections` (`id`, `title`, `subtitle`, `start_time`, `end_time`, `state`, `created_at`)
SELECT 1, `title`, `subtitle`, `start_time`, `end_time`, 'open', `updated_at` FROM `election_settings` WHERE `id` = 1;
