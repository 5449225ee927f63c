import { describe, expect, it } from "vitest";
import { messages } from "./messages.ts";
import { createPositionSchema, createUserSchema, dateOfBirthSchema, emailUpdateSchema, isCalendarDate, matricNumberSchema, passwordFormSchema } from "./schemas.ts";

const firstMessage = (r: { success: boolean; error?: { issues: { message: string }[] } }) => r.error?.issues[0]?.message;

describe("matric number", () => {
  it.each([
    ["2020/5570123", true],
    ["0000/5570000", true],
    ["2020/55701", true],
    ["2020/5570", false],
    ["202/5570123", false],
    ["2020-5570123", false],
    ["2020/5571123", false],
  ])("%s valid=%s", (value, valid) => {
    expect(matricNumberSchema.safeParse(value).success).toBe(valid);
  });
  it("uses docs/product.md's messages", () => {
    expect(firstMessage(matricNumberSchema.safeParse(""))).toBe(messages.matricRequired);
    expect(firstMessage(matricNumberSchema.safeParse("abc"))).toBe(messages.matricFormat);
  });
});

describe("date of birth", () => {
  it("accepts 8 digits as text or number and normalises to text", () => {
    expect(dateOfBirthSchema.parse("20020515")).toBe("20020515");
    expect(dateOfBirthSchema.parse(20020515)).toBe("20020515");
  });
  it("refuses other shapes and impossible dates with the format message", () => {
    for (const v of ["2002051", "200205151", "2002-05-15", 2002051.5, "20020230", "18991231"]) {
      expect(firstMessage(dateOfBirthSchema.safeParse(v))).toBe(messages.dobFormat);
    }
    expect(firstMessage(dateOfBirthSchema.safeParse(""))).toBe(messages.dobRequired);
    expect(isCalendarDate("20000229")).toBe(true);
    expect(isCalendarDate("19000229")).toBe(false);
  });
});

describe("forms", () => {
  it("create user requires a name", () => {
    expect(firstMessage(createUserSchema.safeParse({ name: " ", matricNumber: "2020/5570123", dateOfBirth: "20020515" }))).toBe(messages.nameRequired);
  });
  it("create position needs an end after the start and converts to UTC", () => {
    const ok = createPositionSchema.parse({ title: "P", startTime: "2026-01-01T10:00:00+01:00", endTime: "2026-01-01T11:00:00Z" });
    expect(ok.startTime).toBe("2026-01-01T09:00:00.000Z");
    expect(firstMessage(createPositionSchema.safeParse({ title: "P", startTime: "2026-01-01T10:00:00Z", endTime: "2026-01-01T10:00:00Z" }))).toBe(messages.endAfterStart);
  });
  it("email must be in the university domain", () => {
    expect(firstMessage(emailUpdateSchema.safeParse({ email: "" }))).toBe(messages.emailRequired);
    expect(firstMessage(emailUpdateSchema.safeParse({ email: "a@gmail.com" }))).toBe(messages.emailDomain);
    expect(emailUpdateSchema.parse({ email: "A@UNIPORT.EDU.NG" }).email).toBe("a@uniport.edu.ng");
  });
  it("password form checks length and confirmation", () => {
    expect(firstMessage(passwordFormSchema.safeParse({ newPassword: "", confirmPassword: "" }))).toBe(messages.newPasswordRequired);
    expect(firstMessage(passwordFormSchema.safeParse({ newPassword: "abc", confirmPassword: "abc" }))).toBe(messages.passwordTooShort);
    expect(firstMessage(passwordFormSchema.safeParse({ newPassword: "abcdef", confirmPassword: "abcdeg" }))).toBe(messages.passwordsDoNotMatch);
    expect(passwordFormSchema.safeParse({ newPassword: "abcdef", confirmPassword: "abcdef" }).success).toBe(true);
  });
});
