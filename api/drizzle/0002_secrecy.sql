-- Ballot secrecy (issue 9; README "Threat model", docs/decisions/0003-ballot-secrecy.md).
-- A voter's participation keeps no time at all (a ballot keeps only its hour), and gains the
-- polling station it was cast at (issue 14 fills it; null for a vote from the voter's device).
ALTER TABLE `participations` DROP COLUMN `created_at`;
--> statement-breakpoint
ALTER TABLE `participations` ADD `station_id` text;
--> statement-breakpoint
-- Ballots name a choice kind: a candidate (also 'Yes' on an unopposed position), 'no' or
-- 'abstain'; only a candidate ballot names a candidate.
CREATE TABLE `ballots_v2` (
	`id` text PRIMARY KEY NOT NULL,
	`position_id` text NOT NULL,
	`choice` text DEFAULT 'candidate' NOT NULL,
	`candidate_id` text,
	`cast_hour` integer NOT NULL,
	FOREIGN KEY (`position_id`) REFERENCES `positions`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`candidate_id`) REFERENCES `candidates`(`id`) ON UPDATE no action ON DELETE cascade,
	CHECK (`choice` IN ('candidate', 'no', 'abstain')),
	CHECK ((`choice` = 'candidate') = (`candidate_id` IS NOT NULL))
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `ballots_v2` (`id`, `position_id`, `choice`, `candidate_id`, `cast_hour`)
	SELECT `id`, `position_id`, 'candidate', `candidate_id`, `cast_hour` FROM `ballots`;
--> statement-breakpoint
DROP TABLE `ballots`;
--> statement-breakpoint
ALTER TABLE `ballots_v2` RENAME TO `ballots`;
--> statement-breakpoint
CREATE INDEX `ballots_candidate_idx` ON `ballots` (`position_id`, `candidate_id`);
--> statement-breakpoint
-- Per-position tallies of the choices that name no candidate (candidates keep vote_count).
ALTER TABLE `positions` ADD `no_count` integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE `positions` ADD `abstain_count` integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
-- Idempotency rows keep the hour they were written (expiry after 24 h), not the millisecond.
-- Rows written before this migration carry a fingerprint shared by every voter of the same
-- candidate: they are dropped (a replay of such a key then answers 409 with the vote held).
DELETE FROM `idempotency_keys`;
--> statement-breakpoint
ALTER TABLE `idempotency_keys` RENAME COLUMN `created_at` TO `created_hour`;
--> statement-breakpoint
CREATE INDEX `idempotency_keys_hour_idx` ON `idempotency_keys` (`created_hour`);
--> statement-breakpoint
-- A ballot waiting for the mixer (api/src/services/mixer.ts): written with its participation,
-- sealed (kind, candidate, ballot id, hour: fixed length) so that commit names no choice;
-- applied to `ballots` and the tallies later, in a shuffled batch with others. The position
-- is in clear (the participation names it too) so deleting a position drops its pending
-- ballots and a candidate cannot be deleted while its position has votes in flight.
CREATE TABLE `pending_ballots` (
	`id` text PRIMARY KEY NOT NULL,
	`position_id` text NOT NULL,
	`sealed` text NOT NULL,
	FOREIGN KEY (`position_id`) REFERENCES `positions`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
--> statement-breakpoint
CREATE INDEX `pending_ballots_position_idx` ON `pending_ballots` (`position_id`);
