-- Ranked positions: show the full count while voting is open (the admin's choice; off shows first preferences until the close).
ALTER TABLE `positions` ADD `live_count` integer DEFAULT 0 NOT NULL;
