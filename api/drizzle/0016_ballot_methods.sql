-- Ballot methods (shared/src/ballot-methods.ts): a position's method, seats, referendum question
-- and pass threshold; 'yes' and multi-ballot tallies; ballots that carry their marks (multi,
-- ranked), with checks widened to the new kinds (a table rebuild: SQLite cannot alter a CHECK).
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_ballots` (
	`id` text PRIMARY KEY NOT NULL,
	`position_id` text NOT NULL,
	`choice` text DEFAULT 'candidate' NOT NULL,
	`candidate_id` text,
	`marks` text,
	`mac` text,
	FOREIGN KEY (`position_id`) REFERENCES `positions`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`candidate_id`) REFERENCES `candidates`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "ballots_choice_check" CHECK(choice IN ('candidate', 'no', 'abstain', 'yes', 'multi', 'ranked')),
	CONSTRAINT "ballots_candidate_check" CHECK((choice IN ('candidate', 'ranked')) = (candidate_id IS NOT NULL)),
	CONSTRAINT "ballots_marks_check" CHECK((choice IN ('multi', 'ranked')) = (marks IS NOT NULL))
);
--> statement-breakpoint
INSERT INTO `__new_ballots`("id", "position_id", "choice", "candidate_id", "marks", "mac") SELECT "id", "position_id", "choice", "candidate_id", NULL, "mac" FROM `ballots`;--> statement-breakpoint
DROP TABLE `ballots`;--> statement-breakpoint
ALTER TABLE `__new_ballots` RENAME TO `ballots`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
ALTER TABLE `positions` ADD `method` text DEFAULT 'single' NOT NULL;--> statement-breakpoint
ALTER TABLE `positions` ADD `seats` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `positions` ADD `question` text;--> statement-breakpoint
ALTER TABLE `positions` ADD `pass_threshold` real DEFAULT 0.5 NOT NULL;--> statement-breakpoint
-- Stored in every existing row: on rows older than the ALTER, PRAGMA integrity_check (which the
-- tally check runs) reported this REAL column NULL.
UPDATE `positions` SET `pass_threshold` = 0.5;--> statement-breakpoint
ALTER TABLE `positions` ADD `yes_count` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `positions` ADD `multi_count` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- What a vote is checked against now includes the method fields: other processes' caches must hear of a change.
DROP TRIGGER IF EXISTS `catalog_version_position_update`;
--> statement-breakpoint
CREATE TRIGGER `catalog_version_position_update` AFTER UPDATE OF `id`, `start_time`, `end_time`, `eligible_groups`, `allow_abstain`, `method`, `seats`, `question`, `pass_threshold` ON `positions` BEGIN INSERT INTO `meta` (`key`, `value`) VALUES ('catalog_version', 1) ON CONFLICT (`key`) DO UPDATE SET `value` = `value` + 1; END;
