-- The verifiable positions' tables WITHOUT ROWID (decision 0003). As rowid tables, a ballot's
-- commit gave its voter row, its ballot row and its board records rowids in the same order, so
-- the order of `belenios_voters` lined each voter up with a ballot on the board (which a server
-- trustee can decrypt); `belenios_credentials` kept the credential authority's upload order
-- (often the roll's); `belenios_records` interleaved the positions' boards as ballots came.
-- Keyed by what they hold (a voter's random id, a credential, a board's own sequence), their
-- storage order says nothing about when a row was written.
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_belenios_voters` (
	`position_id` text NOT NULL,
	`voter_id` text NOT NULL,
	PRIMARY KEY(`position_id`, `voter_id`),
	FOREIGN KEY (`position_id`) REFERENCES `positions`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `__new_belenios_voters`("position_id", "voter_id") SELECT "position_id", "voter_id" FROM `belenios_voters` ORDER BY "position_id", "voter_id";--> statement-breakpoint
DROP TABLE `belenios_voters`;--> statement-breakpoint
ALTER TABLE `__new_belenios_voters` RENAME TO `belenios_voters`;--> statement-breakpoint
CREATE TABLE `__new_belenios_ballots` (
	`position_id` text NOT NULL,
	`credential` text NOT NULL,
	`tracker` text NOT NULL,
	PRIMARY KEY(`position_id`, `credential`),
	FOREIGN KEY (`position_id`) REFERENCES `positions`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `__new_belenios_ballots`("position_id", "credential", "tracker") SELECT "position_id", "credential", "tracker" FROM `belenios_ballots` ORDER BY "position_id", "credential";--> statement-breakpoint
DROP TABLE `belenios_ballots`;--> statement-breakpoint
ALTER TABLE `__new_belenios_ballots` RENAME TO `belenios_ballots`;--> statement-breakpoint
CREATE TABLE `__new_belenios_credentials` (
	`position_id` text NOT NULL,
	`credential` text NOT NULL,
	PRIMARY KEY(`position_id`, `credential`),
	FOREIGN KEY (`position_id`) REFERENCES `positions`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `__new_belenios_credentials`("position_id", "credential") SELECT "position_id", "credential" FROM `belenios_credentials` ORDER BY "position_id", "credential";--> statement-breakpoint
DROP TABLE `belenios_credentials`;--> statement-breakpoint
ALTER TABLE `__new_belenios_credentials` RENAME TO `belenios_credentials`;--> statement-breakpoint
CREATE TABLE `__new_belenios_records` (
	`position_id` text NOT NULL,
	`seq` integer NOT NULL,
	`kind` text NOT NULL,
	`hash` text NOT NULL,
	`content` text NOT NULL,
	PRIMARY KEY(`position_id`, `seq`),
	FOREIGN KEY (`position_id`) REFERENCES `positions`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `__new_belenios_records`("position_id", "seq", "kind", "hash", "content") SELECT "position_id", "seq", "kind", "hash", "content" FROM `belenios_records` ORDER BY "position_id", "seq";--> statement-breakpoint
DROP TABLE `belenios_records`;--> statement-breakpoint
ALTER TABLE `__new_belenios_records` RENAME TO `belenios_records`;--> statement-breakpoint
PRAGMA foreign_keys=ON;
