CREATE TABLE `nominations` (
	`id` text PRIMARY KEY NOT NULL,
	`position_id` text NOT NULL,
	`applicant_id` text NOT NULL,
	`manifesto` text NOT NULL,
	`photo_id` text,
	`proposer_id` text,
	`proposer_answer` text,
	`seconder_id` text,
	`seconder_answer` text,
	`state` text NOT NULL,
	`reason` text,
	`candidate_id` text,
	`created_at` integer NOT NULL,
	`decided_at` integer,
	FOREIGN KEY (`position_id`) REFERENCES `positions`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`applicant_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`photo_id`) REFERENCES `photos`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`proposer_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`seconder_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`candidate_id`) REFERENCES `candidates`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "nominations_state_check" CHECK(state IN ('awaiting', 'submitted', 'approved', 'rejected', 'withdrawn'))
);
--> statement-breakpoint
CREATE INDEX `nominations_position_idx` ON `nominations` (`position_id`);--> statement-breakpoint
CREATE INDEX `nominations_applicant_idx` ON `nominations` (`applicant_id`);--> statement-breakpoint
CREATE INDEX `nominations_proposer_idx` ON `nominations` (`proposer_id`);--> statement-breakpoint
CREATE INDEX `nominations_seconder_idx` ON `nominations` (`seconder_id`);--> statement-breakpoint
ALTER TABLE `election_settings` ADD `nominations_start` integer;--> statement-breakpoint
ALTER TABLE `election_settings` ADD `nominations_end` integer;