/**
 * The Cast Vote check, split from the card: it brings zod (~24 KB gzip), whose evaluation is
 * one of /vote's longest first-load tasks. VoteCard fetches this module when the voter first
 * picks a choice; the rule is still the shared one the API applies.
 */
export { castVoteSchema } from "@evoting/shared";
