-- The voter roll: each voter's groups (JSON array of short labels, e.g. ["300L","Software"]).
ALTER TABLE `users` ADD `groups` text DEFAULT '[]' NOT NULL;
