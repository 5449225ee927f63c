/**
 * Mail's schemas (docs/mail.md): the notices an admin sends to voters from 'Notify
 * Voters', and the password reset a user asks for from the login screen. Words and answers:
 * mail-text.ts.
 */
import { z } from "zod";
import { matricNumberSchema, newPasswordSchema } from "./schemas.ts";
import { NOTIFICATION_KINDS } from "./mail-text.ts";

const groupListSchema = z
  .array(z.string().trim().min(1).max(40), { error: "Groups must be a list of group names" })
  .max(50, { error: "Choose at most 50 groups" });

export const notificationSchema = z.object({
  kind: z.enum(NOTIFICATION_KINDS, { error: "Choose invitation, reminder or results" }),
  groups: groupListSchema.optional(),
});
export type NotificationInput = z.infer<typeof notificationSchema>;

/** The recipients' count before sending: the same rule the send applies. */
export const notificationPreviewSchema = z.object({
  kind: z.enum(NOTIFICATION_KINDS, { error: "Choose invitation, reminder or results" }),
  /** Comma-separated group labels. */
  groups: z
    .string()
    .max(2_000)
    .optional()
    .transform((v) => (v ? v.split(",").map((g) => g.trim()).filter(Boolean) : [])),
});

export const passwordResetRequestSchema = z.object({ matricNumber: matricNumberSchema });
export type PasswordResetRequest = z.infer<typeof passwordResetRequestSchema>;

export const passwordResetConfirmSchema = z.object({
  token: z.string({ error: "This reset link is not valid" }).min(1, { error: "This reset link is not valid" }).max(1024),
  newPassword: newPasswordSchema,
});
export type PasswordResetConfirm = z.infer<typeof passwordResetConfirmSchema>;

