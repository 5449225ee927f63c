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
