/** The API's answer shapes (spec section 3), shared so the PWA reads exactly what the API writes. */
/**
 * 'admin' runs the election; 'observer' sees the Admin Panel read-only; 'officer' staffs a
 * polling station and nothing else. Any other role is a voter (spec section 1).
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
}

export interface Position {
  _id: string;
  title: string;
  startTime: string;
  endTime: string;
  candidates: Candidate[];
}

/** Vote page: a position plus a signed ticket the voter may present to vote after an offline spell. */
export interface BallotPosition extends Position {
  ballotTicket?: string;
}

export interface MyVote {
  positionId: string;
  candidateName: string;
  candidateId: string;
}

export interface CastVoteResponse {
  message: string;
  vote: MyVote;
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
  breakdown: BreakdownEntry[];
}

export interface Results {
  totalRegisteredVoters: number;
  totalVotesCast: number;
  results: PositionResult[];
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
