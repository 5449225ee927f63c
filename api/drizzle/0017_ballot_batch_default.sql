-- Ballots reach the tallies in groups of at least 10 per position unless an admin chooses
-- otherwise (PUT /admin/election `ballotBatch`): a tally that moves one ballot at a time ties
-- that ballot to whoever was just marked as voted (docs/decisions/0017-ballot-batch.md).
-- SQLite changes a column default (and adds the CHECK) only by rebuilding the table.
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_election_settings` (
	`id` integer PRIMARY KEY NOT NULL,
	`title` text NOT NULL,
	`subtitle` text NOT NULL,
	`start_time` integer NOT NULL,
	`end_time` integer NOT NULL,
	`results_visibility` text DEFAULT 'live' NOT NULL,
	`ballot_order` text DEFAULT 'fixed' NOT NULL,
	`unopposed` text DEFAULT 'single' NOT NULL,
	`updated_at` integer NOT NULL,
	`ballot_batch` integer DEFAULT 10 NOT NULL,
	CONSTRAINT "election_settings_one_row" CHECK(id = 1),
	CONSTRAINT "election_settings_visibility_check" CHECK(results_visibility IN ('live', 'after-close')),
	CONSTRAINT "election_settings_order_check" CHECK(ballot_order IN ('fixed', 'random')),
	CONSTRAINT "election_settings_unopposed_check" CHECK(unopposed IN ('single', 'yes-no')),
	CONSTRAINT "election_settings_window_check" CHECK(start_time < end_time),
	CONSTRAINT "election_settings_batch_check" CHECK(ballot_batch >= 1)
);
--> statement-breakpoint
INSERT INTO `__new_election_settings`("id", "title", "subtitle", "start_time", "end_time", "results_visibility", "ballot_order", "unopposed", "updated_at", "ballot_batch") SELECT "id", "title", "subtitle", "start_time", "end_time", "results_visibility", "ballot_order", "unopposed", "updated_at", "ballot_batch" FROM `election_settings`;--> statement-breakpoint
DROP TABLE `election_settings`;--> statement-breakpoint
ALTER TABLE `__new_election_settings` RENAME TO `election_settings`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
-- Until now `ballot_batch` could not be changed (no route wrote it), so a 1 here is the old
-- default, never an admin's choice: such an installation gets the new default too.
UPDATE `election_settings` SET `ballot_batch` = 10 WHERE `ballot_batch` = 1;