import { describe, expect, it } from "vitest";
import { chatMessages, hasVisibleText } from "./chat.ts";
import { chatPostSchema } from "./chat-schemas.ts";

describe("chat messages need visible text", () => {
  const invisibleOnly = [
    "\u200B\u200B", // zero-width spaces
    "\u202E\u202D\u202C", // bidi overrides and pop
    "\u2066\u2069\u200F\u200E", // isolates and marks
    "\uFEFF\u2060\u00AD", // BOM, word joiner, soft hyphen
    "\u3164\u2800\u115F", // blank fillers
    " \u3000\t\u200D ", // spaces and a joiner
    "\u{E0041}\u{E007F}", // tag characters
  ];

  it.each(invisibleOnly)("refuses %j", (text) => {
    expect(hasVisibleText(text)).toBe(false);
    const parsed = chatPostSchema.safeParse({ text });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toBeOneOf([chatMessages.invisibleOnly, chatMessages.textRequired]);
  });

  it("keeps messages with something to read, including emoji and right-to-left text", () => {
    for (const text of ["hi", "\u202Eabc", "👍🏽", "مرحبا", "\u200Bx", "é"]) {
      expect(hasVisibleText(text)).toBe(true);
      expect(chatPostSchema.safeParse({ text }).success).toBe(true);
    }
  });
});
