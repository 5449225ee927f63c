-- Ballots are applied in groups of at least `ballot_batch` per position (services/votes/mixer.ts),
-- carry no time, and the integrity check records each run (services/accountability/ballot-integrity.ts).
CREATE TABLE `integrity_checks` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`at` integer NOT NULL,
	`trigger` text NOT NULL,
	`ok` integer NOT NULL,
	`problems` text DEFAULT '[]' NOT NULL
);
--> statement-breakpoint
CREATE TABLE `turnout_hours` (
	`hour` integer PRIMARY KEY NOT NULL,
	`votes` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE `election_settings` ADD `ballot_batch` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
-- The turnout chart keeps its hourly counts as totals that name no choice; a ballot keeps no hour.
INSERT INTO `turnout_hours` (`hour`, `votes`) SELECT `cast_hour`, count(*) FROM `ballots` GROUP BY `cast_hour`;--> statement-breakpoint
ALTER TABLE `ballots` DROP COLUMN `cast_hour`;