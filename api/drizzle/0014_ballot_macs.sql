-- Each ballot's HMAC under the server's ballot key (services/accountability/ballot-integrity.ts).
ALTER TABLE `ballots` ADD `mac` text;