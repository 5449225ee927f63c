-- Sign-in tries, shared by every process on the database (issue 9). One row per account
-- (matric number as typed) while it has tries since its last success: `tries` counts pending
-- and failed tries alike (a try is counted before its secret is checked), `failed_at` marks
-- the last completed failure (the per-address budget counts distinct accounts by it).
CREATE TABLE `signin_tries` (
	`account` text PRIMARY KEY NOT NULL,
	`address` text NOT NULL,
	`tries` integer NOT NULL,
	`last_at` integer NOT NULL,
	`locked_until` integer DEFAULT 0 NOT NULL,
	`failed_at` integer
) WITHOUT ROWID;
--> statement-breakpoint
CREATE INDEX `signin_tries_address_idx` ON `signin_tries` (`address`,`failed_at`);
--> statement-breakpoint
-- Realtime stream tokens already used (single use), kept until the token would have expired.
CREATE TABLE `used_stream_tokens` (
	`id` text PRIMARY KEY NOT NULL,
	`expires_at` integer NOT NULL
) WITHOUT ROWID;
