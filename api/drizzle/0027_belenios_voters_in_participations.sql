-- A verifiable position's vote is a participation like every vote (turnout, the voter's status,
-- one per voter), sealed at the one length of every participation; `belenios_voters`, which
-- said the same, goes. Its rows are not moved: a participation is sealed under the server key,
-- which SQL cannot do, and verifiable positions come in the same release as this migration.
DROP TABLE `belenios_voters`;
