/** Business constants from docs/product.md (Limits), plus the limits the API enforces. */
export const MATRIC_PATTERN = /^\d{4}\/5570\d+$/;
export const DOB_PATTERN = /^\d{8}$/;
export const EMAIL_DOMAIN = "@uniport.edu.ng";
export const MIN_PASSWORD_LENGTH = 6;
/** Upper bound so a hash request cannot be made arbitrarily expensive. */
export const MAX_PASSWORD_LENGTH = 128;
export const MAX_NAME_LENGTH = 120;
export const MAX_TITLE_LENGTH = 120;
/** Matric numbers: 4 + 5 + up to 12 digits is far beyond any real student number. */
export const MAX_MATRIC_LENGTH = 24;
export const MAX_EMAIL_LENGTH = 254;

export const CHECK_USER_DEBOUNCE_MS = 500;
export const RESULTS_REFETCH_MS = 30_000;
export const CHAT_TOKEN_TTL_MS = 15 * 60_000;
export const COUNTDOWN_REFRESH_MS = 1_000;

/** The landing page's fixed election window (docs/product.md, Rules and Limits). */
export const ELECTION_START = "2025-07-04T10:00:00.000Z";
export const ELECTION_END = "2025-07-04T14:00:00.000Z";
export const ELECTION_TITLE = "Department Elections";
export const ELECTION_SUBTITLE = "CSC Leadership 2025";
export const APP_TITLE = "CSC E-Voting";

export const TOP_CANDIDATES_LIMIT = 10;
/**
 * The smallest group of a position's ballots applied to its tallies together, unless an admin
 * chooses otherwise: below a group, whoever sees who voted beside the tallies can tie voters
 * to choices (docs/decisions/0017-ballot-batch.md).
 */
export const DEFAULT_BALLOT_BATCH = 10;
/** A batch larger than this would keep every tally of a student election still until the close. */
export const MAX_BALLOT_BATCH = 1_000;
export const REALTIME_CHANNEL = "ballot-updates";
export const NEW_VOTE_EVENT = "new-vote";

export const MAX_PHOTO_BYTES = 2 * 1024 * 1024;

/** A manifesto is plain text, about a page. */
export const MAX_MANIFESTO_LENGTH = 2_000;
export const PHOTO_MIME_TYPES = ["image/png", "image/jpeg", "image/webp", "image/gif"] as const;

export const TOAST_DURATION_MS = 4_000;
export const TOAST_VISIBLE = 3;

/** The audit log page shows this many entries; receipt codes are this long. */
export const AUDIT_PAGE_SIZE = 50;
export const RECEIPT_LENGTH = 10;
