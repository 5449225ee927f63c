-- A station device reported lost (issue 34): its ballots that reach the server afterwards are
-- held sealed in `disputed_ballots` until the election committee accepts or rejects that
-- device's batch; a row leaves with the decision. `positions` lists the position ids chosen in
-- (per-position counts, never a choice). WITHOUT ROWID and a random key: storage order says
-- nothing about arrival. `closed_pending`: the ballot ids still on a device when it closed its
-- session, the only ones of that session that can count afterwards.
CREATE TABLE `disputed_ballots` (
	`id` text PRIMARY KEY NOT NULL,
	`session_id` text NOT NULL,
	`sealed` text NOT NULL,
	`positions` text NOT NULL,
	FOREIGN KEY (`session_id`) REFERENCES `station_sessions`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
--> statement-breakpoint
ALTER TABLE `station_sessions` ADD `lost_at` integer;--> statement-breakpoint
ALTER TABLE `station_sessions` ADD `closed_pending` text;