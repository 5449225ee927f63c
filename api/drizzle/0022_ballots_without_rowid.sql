-- `ballots` back to WITHOUT ROWID (decision 0003): migration 0016 rebuilt it as a rowid table,
-- whose rowids record the order ballots were applied in. The same table, keyed only by the
-- ballot's random id, so its storage order says nothing about when a ballot came.
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
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `__new_ballots`("id", "position_id", "choice", "candidate_id", "marks", "mac") SELECT "id", "position_id", "choice", "candidate_id", "marks", "mac" FROM `ballots` ORDER BY "id";--> statement-breakpoint
DROP TABLE `ballots`;--> statement-breakpoint
ALTER TABLE `__new_ballots` RENAME TO `ballots`;--> statement-breakpoint
PRAGMA foreign_keys=ON;
