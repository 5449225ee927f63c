/**
 * The voter roll's rules, checked by the API on import and edit and by the PWA's forms:
 * the CSV columns and how headers are recognised, one row's validation (the baseline's own
 * messages, through the same zod schemas as Create Users) and groups. Exports escape their
 * cells with `escapeCsvCell` (./csv.ts).
 */
import { z } from "zod";
import { dateOfBirthSchema, emailUpdateSchema, matricNumberSchema, nameSchema, newPasswordSchema } from "./schemas.ts";
import { messages } from "./messages.ts";
import { ROLES, isStaff } from "./roles.ts";

/** Import columns, in the order an export or a template lists them. */
export const ROLL_COLUMNS = ["matricNumber", "name", "dateOfBirth", "email", "groups"] as const;
export type RollColumn = (typeof ROLL_COLUMNS)[number];
export const REQUIRED_ROLL_COLUMNS: readonly RollColumn[] = ["matricNumber", "name", "dateOfBirth"];

/** Export columns (docs/roll.md): no date of birth, no hash of anything. */
export const ROLL_EXPORT_COLUMNS = ["matricNumber", "name", "email", "groups", "hasPassword", "voted"] as const;

/** 20,000 rows is twice the largest roll we were asked about; 5 MB holds it with room to spare. */
export const MAX_ROLL_ROWS = 20_000;
export const MAX_ROLL_BYTES = 5 * 1024 * 1024;
/**
 * Most cells a roll's header may have: its five columns and the empty cells spreadsheets add
 * after them. Every row is read against the header, so a header of 400,000 empty cells made a
 * small file cost rows x cells.
 */
export const MAX_ROLL_HEADER_CELLS = 64;
export const VOTERS_PAGE_SIZE = 50;
export const MAX_VOTERS_PAGE_SIZE = 200;

/** A group label: short, so a position's eligibility list stays readable (messages.groupTooLong says 40, tooManyGroups 20). */
export const MAX_GROUP_LENGTH = 40;
export const MAX_GROUPS = 20;
export const GROUP_SEPARATOR = ";";

/**
 * A header cell to its column, ignoring case, spaces, `_` and `-`: registry spreadsheets say
 * "Matric Number" or "date_of_birth" as often as the exact names.
 */
export function rollColumnOf(header: string): RollColumn | null {
  const key = header.replace(/^\uFEFF/, "").replace(/[\s_-]+/g, "").toLowerCase();
  const aliases: Record<string, RollColumn> = {
    matricnumber: "matricNumber",
    matric: "matricNumber",
    matriculationnumber: "matricNumber",
    name: "name",
    dateofbirth: "dateOfBirth",
    dob: "dateOfBirth",
    email: "email",
    groups: "groups",
    group: "groups",
  };
  return aliases[key] ?? null;
}

export const rollMessages = {
  unknownColumn: (h: string) => `Unknown column "${h}"; expected ${ROLL_COLUMNS.join(", ")}`,
  missingColumn: (c: string) => `Missing column "${c}"`,
  repeatedColumn: (c: string) => `Column "${c}" appears more than once`,
  extraCells: (n: number, expected: number) => `This row has ${n} cells; the header has ${expected}`,
  headerTooWide: (max: number) => `The header row has more than ${max} cells; a roll has at most ${max} columns (matricNumber, name, dateOfBirth, email, groups)`,
  duplicateInFile: (line: number) => `Duplicate matriculation number in this file (first on line ${line})`,
} as const;

/** `300L; Software;;300L` -> ["300L", "Software"]: trimmed, empty dropped, first spelling kept. */
export function splitGroups(text: string): string[] {
  const seen = new Set<string>();
  for (const raw of text.split(GROUP_SEPARATOR)) {
    const label = raw.trim();
    if (label) seen.add(label);
  }
  return [...seen];
}

const GROUP_PATTERN = /^[\p{L}\p{N} ._/-]+$/u;

/** A list of group labels, from an array (JSON) or one `;`-separated string (CSV, forms). */
export const groupsSchema = z
  .union([z.array(z.string()), z.string()], { error: messages.groupInvalid })
  .transform((v) => (typeof v === "string" ? splitGroups(v) : splitGroups(v.join(GROUP_SEPARATOR))))
  .pipe(
    z
      .array(
        z
          .string()
          .max(MAX_GROUP_LENGTH, { error: messages.groupTooLong })
          .regex(GROUP_PATTERN, { error: messages.groupInvalid }),
      )
      .max(MAX_GROUPS, { error: messages.tooManyGroups }),
  );

/** An optional email under the baseline's domain rule (docs/product.md); empty means none. */
export const optionalEmailSchema = z.union([z.string(), z.null()], { error: messages.emailDomain }).transform((v, ctx) => {
  const text = v === null ? "" : v.trim();
  if (text === "") return null;
  const email = emailUpdateSchema.shape.email.safeParse(text);
  if (email.success) return email.data;
  ctx.addIssue({ code: "custom", message: email.error.issues[0].message });
  return z.NEVER;
});

/** One roll row as stored (date of birth still in clear: it is hashed by the API). */
export const rollRowSchema = z.object({
  matricNumber: matricNumberSchema,
  name: nameSchema,
  dateOfBirth: dateOfBirthSchema,
  email: optionalEmailSchema.default(null),
  groups: groupsSchema.default([]),
});
export type RollRow = z.output<typeof rollRowSchema>;

export interface RollIssue {
  /** 1-based line in the file where the row starts. */
  line: number;
  /** The column's canonical name, or "" for a problem with the whole row or file. */
  column: string;
  message: string;
}

/** Validates one row's cells (by canonical column); every failing column is reported. */
export function checkRollRow(cells: Partial<Record<RollColumn, string>>, line: number): { row: RollRow | null; issues: RollIssue[] } {
  const parsed = rollRowSchema.safeParse({
    matricNumber: cells.matricNumber ?? "",
    name: cells.name ?? "",
    dateOfBirth: cells.dateOfBirth ?? "",
    email: cells.email ?? "",
    groups: cells.groups ?? "",
  });
  if (parsed.success) return { row: parsed.data, issues: [] };
  const issues: RollIssue[] = [];
  const seen = new Set<string>();
  for (const issue of parsed.error.issues) {
    const column = String(issue.path[0] ?? "");
    if (seen.has(column)) continue; // the first message per column is the one to act on
    seen.add(column);
    issues.push({ line, column, message: issue.message });
  }
  return { row: null, issues };
}

/** PATCH /admin/voters/:id: the same rules as create, each field optional. */
export const updateVoterSchema = z
  .object({
    name: nameSchema.optional(),
    dateOfBirth: dateOfBirthSchema.optional(),
    email: optionalEmailSchema.optional(),
    groups: groupsSchema.optional(),
  })
  .strict();
export type UpdateVoterInput = z.input<typeof updateVoterSchema>;

/** Roles an admin may give a new account; staff sign in by password only. */
export const roleSchema = z.enum(ROLES, { error: messages.roleInvalid });

/**
 * POST /admin/users: the baseline's fields (docs/product.md) plus groups, role and password. A voter needs a date of
 * birth (the baseline's rule); staff need a password instead and have no date of birth.
 */
export const createAccountSchema = z
  .object({
    name: nameSchema,
    matricNumber: matricNumberSchema,
    dateOfBirth: z.union([z.string(), z.number()]).optional(),
    groups: groupsSchema.default([]),
    role: roleSchema.default("voter"),
    password: z.string().optional(),
  })
  // Checked even when another field failed (`when`), so the form shows every missing field at once as the baseline's does.
  .superRefine(
    (v, ctx) => {
      if (typeof v !== "object" || v === null) return;
      const staff = isStaff(v.role);
      if (!staff || (v.dateOfBirth !== undefined && v.dateOfBirth !== "")) {
        const dob = dateOfBirthSchema.safeParse(v.dateOfBirth);
        if (!dob.success) ctx.addIssue({ code: "custom", path: ["dateOfBirth"], message: dob.error.issues[0].message });
      }
      if (staff || (v.password !== undefined && v.password !== "")) {
        const pw = newPasswordSchema.safeParse(v.password ?? "");
        if (!pw.success) ctx.addIssue({ code: "custom", path: ["password"], message: staff && !v.password ? messages.passwordRequired : pw.error.issues[0].message });
      }
    },
    { when: () => true },
  )
  .transform((v) => {
    const staff = isStaff(v.role);
    const hasDob = !staff || (v.dateOfBirth !== undefined && v.dateOfBirth !== "");
    const dateOfBirth = hasDob && !staff ? dateOfBirthSchema.parse(v.dateOfBirth) : null;
    const password = staff || (v.password !== undefined && v.password !== "") ? newPasswordSchema.parse(v.password ?? "") : null;
    return { name: v.name, matricNumber: v.matricNumber, role: v.role, groups: v.groups, dateOfBirth, password };
  });
export type CreateAccountInput = z.input<typeof createAccountSchema>;

export interface VoterListItem {
  _id: string;
  name: string;
  matricNumber: string;
  email: string | null;
  groups: string[];
  hasPassword: boolean;
  hasVoted: boolean;
}

export interface VoterPage {
  items: VoterListItem[];
  total: number;
  page: number;
  pageSize: number;
}

export interface RollReport {
  dryRun: boolean;
  total: number;
  created: number;
  updated: number;
  unchanged: number;
  errors: RollIssue[];
}
