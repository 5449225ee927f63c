/**
 * Election settings and edits, the shapes the PWA's forms and the API's validators
 * share. Window rules that depend on the clock and on stored values are in election-rules.ts;
 * these check the shape and start < end.
 */
import { z } from "zod";
import { MAX_BALLOT_BATCH, MAX_MANIFESTO_LENGTH, MAX_TITLE_LENGTH } from "./constants.ts";
import { messages } from "./messages.ts";
import { liveCountField, positionMethodFields } from "./ballot-methods.ts";
import { groupsSchema } from "./roll.ts";
import { createCandidateSchema, instantSchema, requiredString } from "./schemas.ts";
import { nominationMessages, nominationWindowProblem } from "./nominations.ts";

const instantMs = (iso: string | null): number | null => (iso === null ? null : Date.parse(iso));

const titleSchema = (required: string, label: string) =>
  requiredString(required).max(MAX_TITLE_LENGTH, { error: `${label} must be at most ${MAX_TITLE_LENGTH} characters` });

/** An election's name and window: its settings, and a new election's (./elections.ts). */
export const electionIdentityFields = {
  title: titleSchema(messages.electionTitleRequired, "Election title"),
  subtitle: z
    .string({ error: "Subtitle must be text" })
    .trim()
    .max(MAX_TITLE_LENGTH, { error: `Subtitle must be at most ${MAX_TITLE_LENGTH} characters` }),
  startTime: instantSchema(messages.startTimeRequired, "Start time"),
  endTime: instantSchema(messages.endTimeRequired, "End time"),
};

export const electionSettingsSchema = z
  .object({
    ...electionIdentityFields,
    resultsVisibility: z.enum(["live", "after-close"], { error: "Results visibility must be 'live' or 'after-close'" }),
    ballotOrder: z.enum(["fixed", "random"], { error: "Ballot order must be 'fixed' or 'random'" }),
    unopposed: z.enum(["single", "yes-no"], { error: "Unopposed positions must be 'single' or 'yes-no'" }),
    /** The nomination window (./nominations.ts): null clears it; omitted keeps the stored one. */
    nominationsStart: z.union([instantSchema(nominationMessages.nominationWindowBoth, "Nominations start"), z.null()]).optional(),
    nominationsEnd: z.union([instantSchema(nominationMessages.nominationWindowBoth, "Nominations end"), z.null()]).optional(),
    /** Omitted: the stored value stays (a form or client that does not know the field). */
    ballotBatch: z
      .number({ error: messages.ballotBatchInvalid })
      .int({ error: messages.ballotBatchInvalid })
      .min(1, { error: messages.ballotBatchInvalid })
      .max(MAX_BALLOT_BATCH, { error: messages.ballotBatchInvalid })
      .optional(),
  })
  .refine((v) => Date.parse(v.endTime) > Date.parse(v.startTime), { error: messages.endAfterStart, path: ["endTime"] })
  .superRefine((v, ctx) => {
    // Only when both are sent: one alone is checked against the stored other by the API.
    if (v.nominationsStart === undefined || v.nominationsEnd === undefined) return;
    const problem = nominationWindowProblem(instantMs(v.nominationsStart), instantMs(v.nominationsEnd), Date.parse(v.startTime));
    if (problem) ctx.addIssue({ code: "custom", message: problem, path: ["nominationsEnd"] });
  });
export type ElectionSettingsInput = z.infer<typeof electionSettingsSchema>;

export const updatePositionSchema = z
  .object({
    title: titleSchema(messages.positionTitleRequired, "Position title").optional(),
    startTime: instantSchema(messages.startTimeRequired, "Start time").optional(),
    endTime: instantSchema(messages.endTimeRequired, "End time").optional(),
    /** The roll's own group rules (./roll.ts); empty means every voter. */
    eligibleGroups: groupsSchema.optional(),
    allowAbstain: z.boolean({ error: "Allow abstain must be true or false" }).optional(),
    ...positionMethodFields,
    ...liveCountField,
    /** A Belenios-verifiable ballot (docs/verifiable.md). */
    verifiable: z.boolean({ error: "Verifiable ballot must be true or false" }).optional(),
  })
  .strict();
export type UpdatePositionInput = z.infer<typeof updatePositionSchema>;

/** Plain text, kept as typed (line breaks matter); blank reads as "no manifesto". */
export const manifestoSchema = z
  .string({ error: "Manifesto must be text" })
  .max(MAX_MANIFESTO_LENGTH, { error: messages.manifestoTooLong })
  .transform((v) => (v.trim() === "" ? null : v.trim()));

export const updateCandidateSchema = z.object({
  name: createCandidateSchema.shape.name.optional(),
  manifesto: manifestoSchema.optional(),
});
export type UpdateCandidateInput = z.infer<typeof updateCandidateSchema>;
