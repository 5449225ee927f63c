-- Issue 11: election settings (one row), position eligibility and abstain, candidate manifestos.
-- The settings row starts as the spec's fixed election, so an install that changes nothing
-- behaves exactly as the spec says.
CREATE TABLE `election_settings` (
	`id` integer PRIMARY KEY NOT NULL CHECK (`id` = 1),
	`title` text NOT NULL,
	`subtitle` text NOT NULL,
	`start_time` integer NOT NULL,
	`end_time` integer NOT NULL,
	`results_visibility` text DEFAULT 'live' NOT NULL CHECK (`results_visibility` IN ('live', 'after-close')),
	`ballot_order` text DEFAULT 'fixed' NOT NULL CHECK (`ballot_order` IN ('fixed', 'random')),
	-- A position with one candidate: 'single' (the spec: an ordinary vote) or 'yes-no'.
	`unopposed` text DEFAULT 'single' NOT NULL CHECK (`unopposed` IN ('single', 'yes-no')),
	`updated_at` integer NOT NULL,
	CHECK (`start_time` < `end_time`)
);
--> statement-breakpoint
INSERT INTO `election_settings` (`id`, `title`, `subtitle`, `start_time`, `end_time`, `results_visibility`, `ballot_order`, `unopposed`, `updated_at`)
VALUES (1, 'Department Elections', 'CSC Leadership 2025', 1751623200000, 1751637600000, 'live', 'fixed', 'single', 0);
--> statement-breakpoint
ALTER TABLE `positions` ADD `eligible_groups` text DEFAULT '[]' NOT NULL;
--> statement-breakpoint
ALTER TABLE `positions` ADD `allow_abstain` integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE `candidates` ADD `manifesto` text;
