-- The chat room's clear: the row a new election leaves in the emptied room says so, and streams
-- turn its change into `reset` (api/src/chat/service.ts).
ALTER TABLE `chat_messages` ADD `clears_room` integer DEFAULT 0 NOT NULL;