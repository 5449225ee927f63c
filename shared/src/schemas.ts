/**
 * Zod schemas shared by the PWA's forms and the API's validators. Each field schema carries
 * the baseline's own message (docs/product.md); the API layers server-only limits (lengths) on the same objects.
 */
import { z } from "zod";
import { messages } from "./messages.ts";
import { MAX_CANDIDATE_ID_LENGTH, MAX_MARKS, liveCountField, positionMethodFields } from "./ballot-methods.ts";
import {
  DOB_PATTERN,
  EMAIL_DOMAIN,
  MATRIC_PATTERN,
  MAX_EMAIL_LENGTH,
  MAX_MATRIC_LENGTH,
  MAX_NAME_LENGTH,
  MAX_PASSWORD_LENGTH,
  MAX_TITLE_LENGTH,
  MIN_PASSWORD_LENGTH,
} from "./constants.ts";

/** A required string: missing, non-string and empty all read as "required". */
const requiredString = (message: string) =>
  z.string({ error: message }).trim().min(1, { error: message });

export const matricNumberSchema = requiredString(messages.matricRequired)
  .max(MAX_MATRIC_LENGTH, { error: messages.matricFormat })
  .regex(MATRIC_PATTERN, { error: messages.matricFormat });

/** True when YYYYMMDD names a real calendar day. */
export function isCalendarDate(yyyymmdd: string): boolean {
  if (!DOB_PATTERN.test(yyyymmdd)) return false;
  const y = Number(yyyymmdd.slice(0, 4));
  const m = Number(yyyymmdd.slice(4, 6));
  const d = Number(yyyymmdd.slice(6, 8));
  const date = new Date(Date.UTC(y, m - 1, d));
  return (
    y >= 1900 && date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d
  );
}

/**
 * Date of birth as typed (8 digits) or as sent (the integer the baseline's client parses from
 * them). Either way the result is the 8-digit string, the canonical form that gets hashed.
 */
export const dateOfBirthSchema = z
  .union([z.string(), z.number()], { error: messages.dobRequired })
  .transform((v) => (typeof v === "number" ? String(v) : v.trim()))
  .pipe(
    z
      .string()
      .min(1, { error: messages.dobRequired })
      .regex(DOB_PATTERN, { error: messages.dobFormat })
      .refine(isCalendarDate, { error: messages.dobFormat }),
  );

export const passwordLoginSchema = z
  .string({ error: messages.passwordRequired })
  .min(1, { error: messages.passwordRequired })
  .max(MAX_PASSWORD_LENGTH, { error: messages.invalidCredentials });

export const checkUserSchema = z.object({ matricNumber: matricNumberSchema });
export type CheckUserInput = z.infer<typeof checkUserSchema>;

/** Login: exactly one of password or dateOfBirth, which one depends on the account. */
export const loginSchema = z
  .object({
    matricNumber: matricNumberSchema,
    password: passwordLoginSchema.optional(),
    dateOfBirth: dateOfBirthSchema.optional(),
  })
  .refine((v) => v.password !== undefined || v.dateOfBirth !== undefined, {
    error: messages.passwordRequired,
    path: ["password"],
  });
export type LoginInput = z.infer<typeof loginSchema>;

export const nameSchema = requiredString(messages.nameRequired).max(MAX_NAME_LENGTH, {
  error: `Name must be at most ${MAX_NAME_LENGTH} characters`,
});

export const createUserSchema = z.object({
  name: nameSchema,
  matricNumber: matricNumberSchema,
  dateOfBirth: dateOfBirthSchema,
});
export type CreateUserInput = z.infer<typeof createUserSchema>;

/** An instant: an ISO 8601 string with a zone (what the PWA sends) or epoch milliseconds. */
const instantSchema = (requiredMessage: string, label: string) =>
  z
    .union([z.string(), z.number()], { error: requiredMessage })
    .refine((v) => v !== "", { error: requiredMessage })
    .transform((v, ctx) => {
      const ms = typeof v === "number" ? v : Date.parse(v);
      // Beyond ±8.64e15 ms a Date is invalid and toISOString() throws (found by api/src/fuzz.fuzz.test.ts).
      if (!Number.isFinite(ms) || Math.abs(ms) > 8.64e15 || (typeof v === "string" && !/^\d{4}-\d{2}-\d{2}T/.test(v))) {
        ctx.addIssue({ code: "custom", message: `${label} must be a valid date and time` });
        return z.NEVER;
      }
      return new Date(ms).toISOString();
    });

export const createPositionSchema = z
  .object({
    title: requiredString(messages.positionTitleRequired).max(MAX_TITLE_LENGTH, {
      error: `Position title must be at most ${MAX_TITLE_LENGTH} characters`,
    }),
    startTime: instantSchema(messages.startTimeRequired, "Start time"),
    endTime: instantSchema(messages.endTimeRequired, "End time"),
    /** Omitted: no Abstain choice on the ballot, as the baseline's positions have none (docs/product.md). */
    allowAbstain: z.boolean({ error: "Allow abstain must be true or false" }).optional(),
    ...positionMethodFields,
    ...liveCountField,
    /** A Belenios-verifiable ballot (docs/verifiable.md); off by default. */
    verifiable: z.boolean({ error: "Verifiable ballot must be true or false" }).optional(),
  })
  // A misspelt field is refused, not dropped: the admin would think it was set.
  .strict()
  .refine((v) => Date.parse(v.endTime) > Date.parse(v.startTime), {
    error: messages.endAfterStart,
    path: ["endTime"],
  });
export type CreatePositionInput = z.infer<typeof createPositionSchema>;

/** Exported for the election settings and position edits (./election-schemas.ts). */
export { instantSchema, requiredString };

export const createCandidateSchema = z.object({
  name: requiredString(messages.candidateNameRequired).max(MAX_NAME_LENGTH, {
    error: `Candidate name must be at most ${MAX_NAME_LENGTH} characters`,
  }),
  positionId: requiredString(messages.positionRequired).max(64, { error: messages.positionNotFound }),
});
export type CreateCandidateInput = z.infer<typeof createCandidateSchema>;

export const emailUpdateSchema = z.object({
  email: requiredString(messages.emailRequired)
    .max(MAX_EMAIL_LENGTH, { error: "Email is too long" })
    .refine((v) => v.toLowerCase().endsWith(EMAIL_DOMAIN), { error: messages.emailDomain })
    .refine((v) => /^[^\s@]+@uniport\.edu\.ng$/i.test(v), { error: "Please enter a valid email address" })
    .transform((v) => v.toLowerCase()),
});
export type EmailUpdateInput = z.infer<typeof emailUpdateSchema>;

export const newPasswordSchema = z
  .string({ error: messages.newPasswordRequired })
  .min(1, { error: messages.newPasswordRequired })
  .min(MIN_PASSWORD_LENGTH, { error: messages.passwordTooShort })
  .max(MAX_PASSWORD_LENGTH, { error: `Password must be at most ${MAX_PASSWORD_LENGTH} characters` });

/** What the API receives. The current password is checked against the account server-side. */
export const passwordUpdateSchema = z.object({
  currentPassword: z.string().max(MAX_PASSWORD_LENGTH).optional(),
  newPassword: newPasswordSchema,
});
export type PasswordUpdateInput = z.infer<typeof passwordUpdateSchema>;

/** What the settings form holds: the API payload plus the confirmation. */
export const passwordFormSchema = z
  .object({
    currentPassword: z.string().optional(),
    newPassword: newPasswordSchema,
    confirmPassword: z.string(),
  })
  .refine((v) => v.newPassword === v.confirmPassword, {
    error: messages.passwordsDoNotMatch,
    path: ["confirmPassword"],
  });
export type PasswordFormInput = z.infer<typeof passwordFormSchema>;

/**
 * A vote names a candidate (also 'Yes' on an unopposed position) or, instead, the choice
 * 'no' (unopposed only) or 'abstain' (where allowed): exactly one of the two.
 */
/** A list of candidate ids on a ballot: bounded so a body can never grow a stored record past its pad. */
const markListSchema = z
  .array(z.string().trim().min(1, { error: messages.candidateNotFound }).max(MAX_CANDIDATE_ID_LENGTH, { error: messages.candidateNotFound }), {
    error: "Candidates must be a list of candidate ids",
  })
  .max(MAX_MARKS, { error: `A ballot marks at most ${MAX_MARKS} candidates` });

export const castVoteSchema = z
  .object({
    positionId: requiredString(messages.positionRequired).max(64, { error: messages.positionNotFound }),
    candidateId: z.string().trim().max(64, { error: messages.candidateNotFound }).optional(),
    /** Several seats: the candidates marked (ballot-methods.ts checks them against the position). */
    candidateIds: markListSchema.optional(),
    /** Ranked: candidate ids, first preference first. */
    ranking: markListSchema.optional(),
    /** 'yes' only on a referendum (ballot-methods.ts). */
    choice: z.enum(["yes", "no", "abstain"], { error: messages.selectCandidate }).optional(),
    /** Optional server-signed ticket proving the ballot was open before close (offline grace). */
    ballotTicket: z.string().max(512).optional(),
    /** A verifiable position: the Belenios ballot built on the device (docs/verifiable.md). */
    ballot: z.string().max(200_000).optional(),
  })
  .refine((v) => (v.candidateId ? 1 : 0) + (v.choice ? 1 : 0) + (v.candidateIds ? 1 : 0) + (v.ranking ? 1 : 0) + (v.ballot ? 1 : 0) === 1, {
    error: messages.selectCandidate,
    path: ["candidateId"],
  });
export type CastVoteInput = z.infer<typeof castVoteSchema>;

/** Client-made idempotency keys are UUIDs. */
export const idempotencyKeySchema = z.uuid({ error: messages.idempotencyKeyInvalid });
