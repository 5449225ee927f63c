-- Fewer pages per vote (issue 13, ninth pass). Each of these indexes put every vote's entry on
-- a random page: `participations_position_idx` orders (position, voter), and voters vote in no
-- order; `ballots_candidate_idx` orders (position, candidate, random ballot id). A vote wrote
-- four random pages to the WAL (and a checkpoint copied them again): its participation, that
-- index, its ballot and that index. Without them it writes two. What read them reads the
-- pending ballots and the tallies instead, which are indexed and kept in the same commits
-- (a position has a vote: routes/admin/candidate-form.ts), or recounts in one pass per table
-- (services/audit.ts). Deleting a position or candidate that has votes now scans for its
-- rows: a rare administrative write, refused anyway for a candidate that has votes.
DROP INDEX IF EXISTS `participations_position_idx`;
--> statement-breakpoint
DROP INDEX IF EXISTS `ballots_candidate_idx`;
