import type { BallotMethod } from "./ballot-methods.ts";
import type { CountRound, CountRule, ReferendumOutcome } from "./counting/index.ts";
/** The API's answer shapes (docs/product.md, The calls), shared so the PWA reads exactly what the API writes. */
/**
 * 'admin' runs the election; 'observer' sees the Admin Panel read-only; 'officer' staffs a
 * polling station and nothing else. Any other role is a voter (docs/product.md, Who uses it).
 */
export type Role = "admin" | "observer" | "officer" | "voter";

export interface UserProfile {
  _id: string;
  name: string;
  role: Role;
  matricNumber: string;
  email: string | null;
  hasPassword: boolean;
}

/** An observer's or officer's account as the admin users screen lists it. */
export interface StaffAccount {
  _id: string;
  name: string;
  matricNumber: string;
  role: "observer" | "officer";
  disabled: boolean;
}

/** The last integrity check (GET /admin/integrity); all null before the first. */
export interface IntegrityStatus {
  ok: boolean | null;
  at: string | null;
  trigger: "close" | "declaration" | "admin" | "start" | null;
  problems: string[];
}

export interface LoginResponse {
  token: string;
  role: Role;
  expiresAt: string;
  user: UserProfile;
}

export interface CheckUserResponse {
  requiresPassword: boolean;
}

export interface PositionRef {
  _id: string;
  title: string;
}

export interface Candidate {
  _id: string;
  name: string;
  photo: string | null;
  position: PositionRef;
  positionId: string;
  positionTitle: string;
  /** Plain text (never HTML), up to 2,000 characters; null when the candidate gave none. */
  manifesto?: string | null;
}

export interface BeleniosInfo {
  uuid: string;
  state: "setup" | "open" | "tallying" | "decrypted";
  election?: string;
  answerIds?: string[] | null;
}

/** A locked verifiable position on the public Ballot Box page (GET /api/positions/verifiable). */
export interface VerifiablePositionRef {
  positionId: string;
  title: string;
  uuid: string;
  state: "open" | "tallying" | "decrypted";
}

export interface Position {
  _id: string;
  title: string;
  /**
   * A verifiable position (docs/verifiable.md): its Belenios election's uuid and state; from the
   * lock, the election as the archive states it (what a device encrypts a ballot for, offline
   * too) and the candidate ids in its answers' order (null for a referendum: Yes, No).
   */
  belenios?: BeleniosInfo;
  startTime: string;
  endTime: string;
  candidates: Candidate[];
  /** Groups whose voters may vote here; empty (or absent) means every voter. */
  eligibleGroups?: string[];
  /** Whether the ballot offers an explicit 'Abstain'. */
  allowAbstain?: boolean;
  /** Decided by Yes/No (election-rules.ts isYesNoBallot); set by the API on ballots, absent means an ordinary vote. */
  yesNo?: boolean;
  /** Ballot method (ballot-methods.ts); absent or 'single' is the baseline's one mark (docs/product.md). */
  method?: BallotMethod;
  /** Seats to fill (multi, ranked). */
  seats?: number;
  /** A referendum's question. */
  question?: string | null;
  /** A referendum passes with Yes strictly above this share of Yes + No. */
  passThreshold?: number;
  /** Ranked: the full count is shown while voting is open, not only first preferences. */
  liveCount?: boolean;
  /** Admin list only: ballots cast here (counted, waiting or held); a position holding any cannot be deleted. */
  ballots?: number;
}

/** Vote page: a position plus a signed ticket the voter may present to vote after an offline spell. */
export interface BallotPosition extends Position {
  ballotTicket?: string;
  /** False when the position is limited to groups the voter is not in: not on their vote page. */
  eligible?: boolean;
}

export interface MyVote {
  positionId: string;
  candidateName: string;
  candidateId: string;
  /** Set only for a vote that names no candidate ('no', 'abstain', a referendum's 'yes'); candidateId/Name are then ''. */
  choice?: "yes" | "no" | "abstain";
  /** Several seats / ranked: the candidates marked, in the voter's order (candidateId/Name are the first). */
  candidateIds?: string[];
  candidateNames?: string[];
  /** The ballot's receipt code: find it in Counted Ballots once the position closes. */
  receipt?: string;
  /** A verifiable position's ballot tracker, computed on this device (the server never ties it to a voter). */
  tracker?: string;
  /**
   * A verifiable position's vote: the server keeps only that it was cast (candidateId/Name are '');
   * the ballot's tracker is kept on the voter's device alone.
   */
  verifiable?: true;
}

export interface CastVoteResponse {
  message: string;
  vote: MyVote;
  /** Same as `vote.receipt` (docs/accountability.md: a vote answer that counted carries it). */
  receipt?: string;
}

export interface BreakdownEntry {
  candidateId: string;
  name: string;
  photo: string | null;
  votes: number;
}

export interface PositionResult {
  positionId: string;
  positionTitle: string;
  totalVotes: number;
  /**
   * A verifiable position (docs/verifiable.md): until its Result is in, only `totalVotes` (the
   * ballots in its box) is known and every tally reads 0; `verified` once the trustees' partial
   * decryptions gave the counts, with the final archive's fingerprint.
   */
  belenios?: { state: "setup" | "open" | "tallying" | "decrypted"; verified: boolean; fingerprint: string | null };
  breakdown: BreakdownEntry[];
  /** 'No' votes on an unopposed position; counted in `totalVotes`. */
  noVotes?: number;
  /** Decided by Yes/No (election-rules.ts isYesNoBallot, at the election's setting); absent means an ordinary vote. */
  yesNo?: boolean;
  /** Explicit abstentions; counted in `totalVotes`, never in a percentage. */
  abstentions?: number;
  /** Voters allowed to vote here when the position is limited to groups (turnout's base). */
  eligibleVoters?: number;
  /** Ballot method; absent on a single-choice position as the baseline's results have it (docs/product.md). */
  method?: BallotMethod;
  seats?: number;
  /** Who is elected, once decided (multi: the seats with most votes; ranked: by the count's rule). */
  elected?: string[];
  /** Multi: candidates tied for the last seat(s), none of them in `elected`. */
  tied?: string[];
  /** Ranked: the rule set counted by, and whether this is the full count or first preferences (voting still open). */
  rule?: CountRule;
  count?: "first-preferences" | "full";
  /** Ranked, first preferences: when voting for the position ends (ISO); the full count follows it and the offline grace. */
  endTime?: string;
  quota?: number;
  rounds?: CountRound[];
  lotSeed?: string;
  /** Referendum. */
  question?: string | null;
  passThreshold?: number;
  referendum?: ReferendumOutcome;
  /**
   * Ballots cast here and not yet in the tallies (fewer than a batch while the position is
   * open); absent when none wait or ballots are applied one by one.
   */
  waiting?: number;
}

export interface Results {
  totalRegisteredVoters: number;
  totalVotesCast: number;
  results: PositionResult[];
  /** The election's batch when above 1: the tallies move in groups of at least this many ballots. */
  ballotBatch?: number;
  /**
   * True until the election is declared: the figures may still change and nobody is elected yet
   * (screens say 'Leading', not 'Elected'). False in a declared election's results and archive;
   * absent in archives made before it existed (they were declared).
   */
  provisional?: boolean;
  /** ISO instant the snapshot was taken. */
  generatedAt: string;
}

export interface TokenResponse {
  token: string;
  expiresAt: string;
}

export interface ApiError {
  message: string;
  issues?: { path: string; message: string }[];
}

/** Election settings (docs/election.md). Instants are ISO strings in UTC. */
export type ResultsVisibility = "live" | "after-close";
export type BallotOrder = "fixed" | "random";
/** How a position with one candidate is decided: 'single' (docs/product.md: an ordinary vote) or 'yes-no'. */
export type UnopposedMode = "single" | "yes-no";

export interface ElectionSettings {
  title: string;
  subtitle: string;
  startTime: string;
  endTime: string;
  resultsVisibility: ResultsVisibility;
  ballotOrder: BallotOrder;
  unopposed: UnopposedMode;
  /** The nomination window (ISO instants), or null when none is set. */
  nominationsStart: string | null;
  nominationsEnd: string | null;
  /** The smallest group of a position's ballots applied to its tallies together (1: each as it comes). */
  ballotBatch: number;
  /**
   * GET /election only: minutes after a close during which a vote cast offline before it is
   * still accepted (the server's VOTE_GRACE_MINUTES); receipts and a ranked count follow it.
   */
  voteGraceMinutes?: number;
}

/** What the login page may know before anyone signs in. */
export type PublicElection = Pick<ElectionSettings, "title" | "subtitle">;

/** Accountability (docs/accountability.md): the audit log, receipts, turnout. */
export interface AuditEntryView {
  _id: string;
  seq: number;
  /** ISO instant. */
  at: string;
  actor: { name: string; matricNumber: string };
  action: string;
  target: string;
  summary: string;
  address: string;
  hash: string;
}

export interface AuditPage {
  items: AuditEntryView[];
  total: number;
  page: number;
  pageSize: number;
  /** Every action recorded so far, for the filter. */
  actions: string[];
}

/** GET /admin/audit/verify: the hash chain and its signed head, checked now. */
export interface AuditVerification {
  ok: boolean;
  entries: number;
  headSeq: number;
  head: string;
  /** Each broken entry and what is wrong with it. */
  problems: { seq: number; id: string; problem: string }[];
}

export interface ReceiptList {
  positionId: string;
  total: number;
  receipts: string[];
}

/** What the printable results sheet shows beyond the results themselves. */
export interface ResultsSheet {
  producedAt: string;
  results: Results;
  /** SHA-256 (hex) of the exact bytes `GET /admin/results.csv` answers for the same results. */
  csvSha256: string;
  audit: { entries: number; headSeq: number; head: string };
}

export interface TurnoutReport {
  /** Ballots per hour (all positions), hour = ISO instant of the hour's start, across the window. */
  hourly: { hour: string; ballots: number }[];
  /** Registered voters and voters who voted at least once, per roll group (voters with no group under ''). */
  groups: { group: string; registered: number; voted: number }[];
}
