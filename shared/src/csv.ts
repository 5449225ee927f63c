/**
 * CSV cells for every export (audit log, results, voter roll). A spreadsheet runs a cell that
 * starts with `=`, `+`, `-` or `@` (or a tab/carriage return before one) as a formula, so such
 * a cell gets a leading `'` (OWASP "CSV injection"); a cell holding a comma, quote or line
 * break is quoted with its quotes doubled (RFC 4180).
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export function escapeCsvCell(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return "";
  // Numbers are written as numbers: a negative count is data, not a formula.
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One CSV document: header and rows, CRLF line ends (RFC 4180), ending with a line break. */
export function toCsv(header: readonly string[], rows: readonly (readonly (string | number | boolean | null | undefined)[])[]): string {
  return [header, ...rows].map((row) => row.map(escapeCsvCell).join(",")).join("\r\n") + "\r\n";
}
