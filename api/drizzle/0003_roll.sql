-- The voter roll: each voter's groups (JSON array of short labels, e.g. ["300L","Software"]).
ALTER TABLE `users` ADD `groups` text DEFAULT '[]' NOT NULL;
--> statement-breakpoint
-- Manage Voters pages through voters only, in matric order: this partial index lets the page
-- and its count walk the voters without reading every row (bench/roll.ts).
CREATE INDEX `users_voters_idx` ON `users` (`matric_number`) WHERE `role` NOT IN ('admin', 'observer', 'officer');
