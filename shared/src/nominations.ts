/**
 * Nominations: a voter applies to stand for a position while the nomination window is open,
 * optionally with a proposer and a seconder (voters on the roll) who confirm from their own
 * sign-in; the committee (admins) approves, which makes the applicant a candidate, or rejects
 * with a reason. Shapes, states, messages and the window rule both sides use.
 */
import { z } from "zod";
import { MAX_MANIFESTO_LENGTH } from "./constants.ts";
import { messages } from "./messages.ts";
import { matricNumberSchema } from "./schemas.ts";

/**
 * - `awaiting`: a named proposer or seconder has not confirmed yet (a decline keeps it here:
 *   the committee may still reject it, the applicant may withdraw and apply again);
 * - `submitted`: ready for screening;
 * - `approved` (the applicant is a candidate), `rejected` (with a reason), `withdrawn`.
 */
export const NOMINATION_STATES = ["awaiting", "submitted", "approved", "rejected", "withdrawn"] as const;
export type NominationState = (typeof NOMINATION_STATES)[number];

/** A proposer's or seconder's answer. */
export type SupporterAnswer = "pending" | "confirmed" | "declined";

export interface NominationSupporter {
  name: string;
  matricNumber: string;
  answer: SupporterAnswer;
}

export interface Nomination {
  _id: string;
  positionId: string;
  positionTitle: string;
  applicant: { name: string; matricNumber: string };
  manifesto: string;
  photo: string | null;
  proposer: NominationSupporter | null;
  seconder: NominationSupporter | null;
  state: NominationState;
  /** The committee's reason, when rejected. */
  reason: string | null;
  /** The candidate approval created (null until approved, or once that candidate is gone). */
  candidateId: string | null;
  /** ISO instants. */
  submittedAt: string;
  decidedAt: string | null;
}

/** A nomination that names the signed-in voter as its proposer or seconder, waiting for their answer. */
export interface NominationRequest {
  _id: string;
  role: "proposer" | "seconder";
  applicant: { name: string; matricNumber: string };
  positionTitle: string;
}

/** GET /nominations: what a voter's screens need in one answer. */
export interface MyNominations {
  window: { start: string | null; end: string | null; open: boolean };
  /** Positions this voter may apply for now (eligible, candidates, ballot not yet published). */
  positions: { _id: string; title: string }[];
  mine: Nomination[];
  requests: NominationRequest[];
}

export const nominationMessages = {
  nominationsClosed: "Nominations are not open: applications are accepted only during the nomination window",
  nominationWindowBoth: "Set both the nomination start and end, or neither",
  nominationWindowOrder: "Nominations must end after they start",
  nominationWindowAfterVoting: "Nominations must close no later than voting starts: set Nominations Close at or before the election's start",
  nominationPhotoRequired: "Choose a photo of yourself",
  nominationPhotoBusy: "Your last photo is still being processed: try again in a moment",
  nominationTooMany: (n: number) => `You have applied for this position ${n} times: no more applications for it`,
  nominationManifestoRequired: "Write your manifesto",
  nominationPositionRequired: "Position is required",
  nominationNotEligible: "You are not eligible to stand for this position",
  nominationReferendum: "A referendum question has no candidates: nobody can stand for it",
  nominationBallotPublished: "This position's ballot is published (it has votes): its candidate list can no longer change",
  nominationDuplicate: "You already have an application for this position",
  supporterNotOnRoll: "is not a voter on the roll",
  supporterIsApplicant: "You cannot propose or second yourself",
  supportersSame: "The proposer and the seconder must be different voters",
  nominationNotFound: "Nomination not found",
  nominationNotYours: "This nomination does not name you as its proposer or seconder",
  nominationAlreadyAnswered: "You have already answered this nomination",
  nominationNotAwaiting: "This nomination is no longer waiting for its proposer or seconder",
  nominationNotSubmitted: "Only a submitted nomination can be approved: this one is",
  nominationAlreadyDecided: "This nomination has already been decided",
  nominationAlreadyCandidate: "The applicant is already a candidate for this position",
  nominationCannotWithdraw: "This application can no longer be withdrawn",
  rejectReasonRequired: "Give the applicant a reason",
  applySuccess: "Application submitted!",
  applyFailed: "Failed to submit application",
  withdrawSuccess: "Application withdrawn",
  withdrawFailed: "Failed to withdraw application",
  confirmSuccess: "Nomination confirmed",
  declineSuccess: "Nomination declined",
  answerFailed: "Failed to answer the nomination",
  approveSuccess: "Nomination approved: the applicant is now a candidate",
  approveFailed: "Failed to approve nomination",
  rejectSuccess: "Nomination rejected",
  rejectFailed: "Failed to reject nomination",
  loadNominationsFailed: "Could not load nominations.",
  nominationVotersOnly: "Only voters on the roll can stand or support a nomination",
} as const;

/** A rejection reason is shown to the applicant: short plain text. */
export const MAX_REASON_LENGTH = 500;

/** An optional matric number: blank reads as none. */
const optionalMatric = z
  .union([z.string(), z.undefined(), z.null()])
  .transform((v) => (v ?? "").trim())
  .pipe(z.union([z.literal(""), matricNumberSchema]))
  .transform((v) => (v === "" ? null : v));

/**
 * The application's text fields (the photo travels beside them in the multipart body). The
 * manifesto keeps the candidate's limit; unlike a candidate's, an application needs one.
 */
export const applyNominationSchema = z
  .object({
    positionId: z.string({ error: nominationMessages.nominationPositionRequired }).trim().min(1, { error: nominationMessages.nominationPositionRequired }),
    manifesto: z
      .string({ error: nominationMessages.nominationManifestoRequired })
      .trim()
      .min(1, { error: nominationMessages.nominationManifestoRequired })
      .max(MAX_MANIFESTO_LENGTH, { error: messages.manifestoTooLong }),
    proposer: optionalMatric,
    seconder: optionalMatric,
  })
  .refine((v) => !v.proposer || !v.seconder || v.proposer !== v.seconder, { error: nominationMessages.supportersSame, path: ["seconder"] });
export type ApplyNominationInput = z.infer<typeof applyNominationSchema>;

export const rejectNominationSchema = z.object({
  reason: z
    .string({ error: nominationMessages.rejectReasonRequired })
    .trim()
    .min(1, { error: nominationMessages.rejectReasonRequired })
    .max(MAX_REASON_LENGTH, { error: `The reason must be at most ${MAX_REASON_LENGTH} characters` }),
});

export const nominationFiltersSchema = z.object({
  state: z.enum(NOMINATION_STATES, { error: `State must be one of ${NOMINATION_STATES.join(", ")}` }).optional(),
  positionId: z.string().trim().min(1).optional(),
});

/**
 * When nominations close: their end, or the election's start if that comes first (candidates
 * cannot change once voting starts, whatever a window saved earlier says). Null with no window.
 */
export function nominationsCloseAt(window: { nominationsEnd: string | null; startTime?: string }): number | null {
  if (window.nominationsEnd === null) return null;
  const end = Date.parse(window.nominationsEnd);
  return window.startTime === undefined ? end : Math.min(end, Date.parse(window.startTime));
}

/** Open from its start (inclusive) until it closes (nominationsCloseAt); no window set means closed. */
export function nominationsOpen(now: number, window: { nominationsStart: string | null; nominationsEnd: string | null; startTime?: string }): boolean {
  const close = nominationsCloseAt(window);
  return window.nominationsStart !== null && close !== null && now >= Date.parse(window.nominationsStart) && now < close;
}

/**
 * Why a nomination window is refused, or null: both or neither, the end after the start, and
 * (given the election's start) the end no later than voting starts.
 */
export function nominationWindowProblem(start: number | null, end: number | null, votingStart?: number): string | null {
  if ((start === null) !== (end === null)) return nominationMessages.nominationWindowBoth;
  if (start !== null && end !== null && end <= start) return nominationMessages.nominationWindowOrder;
  if (end !== null && votingStart !== undefined && end > votingStart) return nominationMessages.nominationWindowAfterVoting;
  return null;
}

/** What the applicant and the committee read for a state. */
export function nominationStateLabel(n: Pick<Nomination, "state" | "proposer" | "seconder">): string {
  if (n.state !== "awaiting") return { submitted: "Submitted", approved: "Approved", rejected: "Rejected", withdrawn: "Withdrawn" }[n.state];
  const waiting = [n.proposer?.answer !== "confirmed" && n.proposer ? "proposer" : null, n.seconder?.answer !== "confirmed" && n.seconder ? "seconder" : null].filter(Boolean);
  return `Awaiting ${waiting.join(" and ") || "proposer/seconder"}`;
}
