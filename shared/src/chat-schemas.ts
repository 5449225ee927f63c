/**
 * The API's validators for the election chat, built from the limits and texts in
 * chat.ts. Apart from chat.ts so the PWA's chat, which needs only those, does not load zod.
 */
import { z } from "zod";
import { CHAT_MAX_LENGTH, CHAT_MAX_MUTE_MINUTES, chatMessages, hasVisibleText } from "./chat.ts";

export const chatPostSchema = z.object({
  text: z
    .string({ error: chatMessages.textRequired })
    .trim()
    .min(1, { error: chatMessages.textRequired })
    .max(CHAT_MAX_LENGTH, { error: chatMessages.textTooLong })
    .refine(hasVisibleText, { error: chatMessages.invisibleOnly }),
});
export type ChatPost = z.infer<typeof chatPostSchema>;

export const chatMuteSchema = z.object({
  userId: z.string({ error: chatMessages.userRequired }).min(1, { error: chatMessages.userRequired }).max(64),
  minutes: z
    .number({ error: chatMessages.muteMinutes })
    .int({ error: chatMessages.muteMinutes })
    .min(1, { error: chatMessages.muteMinutes })
    .max(CHAT_MAX_MUTE_MINUTES, { error: chatMessages.muteMinutes }),
});
export type ChatMute = z.infer<typeof chatMuteSchema>;
