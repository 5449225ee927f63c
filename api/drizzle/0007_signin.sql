-- Reserved for this wave's issue; replace this statement with the real ones.
SELECT 1;
