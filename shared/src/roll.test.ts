import { describe, expect, it } from "vitest";
import { messages } from "./messages.ts";
import { checkRollRow, createAccountSchema, rollColumnOf, splitGroups, updateVoterSchema } from "./roll.ts";

describe("roll columns", () => {
  it("recognises headers whatever their case, spacing or BOM", () => {
    expect(rollColumnOf("\uFEFFMatricNumber")).toBe("matricNumber");
    expect(rollColumnOf("Matric Number")).toBe("matricNumber");
    expect(rollColumnOf("date_of_birth")).toBe("dateOfBirth");
    expect(rollColumnOf(" EMAIL ")).toBe("email");
    expect(rollColumnOf("Groups")).toBe("groups");
    expect(rollColumnOf("phone")).toBeNull();
  });
});

describe("a roll row", () => {
  const good = { matricNumber: "2020/5570123", name: "Ada Obi", dateOfBirth: "20020515" };

  it("accepts the required columns and normalises the optional ones", () => {
    const { row, issues } = checkRollRow({ ...good, email: " Ada@Uniport.edu.ng ", groups: "300L; Software;;300L" }, 2);
    expect(issues).toEqual([]);
    expect(row).toEqual({ ...good, email: "ada@uniport.edu.ng", groups: ["300L", "Software"] });
    expect(checkRollRow({ ...good, email: "", groups: "" }, 2).row).toMatchObject({ email: null, groups: [] });
  });

  it("reports every bad column with docs/product.md's message and the line", () => {
    const { row, issues } = checkRollRow({ matricNumber: "2020/123", name: "", dateOfBirth: "20020230", email: "a@gmail.com" }, 7);
    expect(row).toBeNull();
    expect(issues).toEqual([
      { line: 7, column: "matricNumber", message: messages.matricFormat },
      { line: 7, column: "name", message: messages.nameRequired },
      { line: 7, column: "dateOfBirth", message: messages.dobFormat },
      { line: 7, column: "email", message: messages.emailDomain },
    ]);
  });

  it("limits groups", () => {
    expect(checkRollRow({ ...good, groups: "x".repeat(41) }, 3).issues[0]).toMatchObject({ column: "groups", message: messages.groupTooLong });
    expect(checkRollRow({ ...good, groups: "a=b" }, 3).issues[0].message).toBe(messages.groupInvalid);
    expect(splitGroups(Array.from({ length: 21 }, (_, i) => `g${i}`).join(";"))).toHaveLength(21);
    expect(checkRollRow({ ...good, groups: Array.from({ length: 21 }, (_, i) => `g${i}`).join(";") }, 3).issues[0].message).toBe(
      messages.tooManyGroups,
    );
  });
});

describe("creating an account", () => {
  it("keeps docs/product.md's voter payload working, with groups", () => {
    const parsed = createAccountSchema.parse({ name: "Ada", matricNumber: "2020/5570123", dateOfBirth: 20020515, groups: "300L" });
    expect(parsed).toEqual({ name: "Ada", matricNumber: "2020/5570123", role: "voter", groups: ["300L"], dateOfBirth: "20020515", password: null });
    expect(createAccountSchema.safeParse({ name: "Ada", matricNumber: "2020/5570123" }).error?.issues[0].message).toBe(messages.dobRequired);
    // An empty form reports every field at once, as Create Users in docs/product.md does.
    const blank = createAccountSchema.safeParse({ name: "", matricNumber: "", dateOfBirth: "", groups: "", password: "" });
    expect(blank.error?.issues.find((i) => i.path[0] === "dateOfBirth")?.message).toBe(messages.dobRequired);
    expect(blank.error?.issues.find((i) => i.path[0] === "name")?.message).toBe(messages.nameRequired);
  });

  it("needs a password, not a date of birth, for staff", () => {
    const missing = createAccountSchema.safeParse({ name: "Obs", matricNumber: "0000/5570001", role: "observer" });
    expect(missing.error?.issues[0]).toMatchObject({ path: ["password"], message: messages.passwordRequired });
    const short = createAccountSchema.safeParse({ name: "Obs", matricNumber: "0000/5570001", role: "officer", password: "abc" });
    expect(short.error?.issues[0].message).toBe(messages.passwordTooShort);
    const ok = createAccountSchema.parse({ name: "Obs", matricNumber: "0000/5570001", role: "observer", password: "secret-1", dateOfBirth: "20020515" });
    expect(ok).toMatchObject({ role: "observer", password: "secret-1", dateOfBirth: null });
    expect(createAccountSchema.safeParse({ name: "X", matricNumber: "0000/5570001", role: "king", password: "secret-1" }).error?.issues[0].message).toBe(
      messages.roleInvalid,
    );
  });
});

describe("editing a voter", () => {
  it("takes any subset of the fields, clears an email, refuses others", () => {
    expect(updateVoterSchema.parse({ email: "" })).toEqual({ email: null });
    expect(updateVoterSchema.parse({ dateOfBirth: 20010101, groups: ["a", " a "] })).toEqual({ dateOfBirth: "20010101", groups: ["a"] });
    expect(updateVoterSchema.safeParse({ matricNumber: "2020/5570123" }).success).toBe(false);
    expect(updateVoterSchema.safeParse({ dateOfBirth: "2001" }).error?.issues[0].message).toBe(messages.dobFormat);
  });
});
