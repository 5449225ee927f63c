/**
 * POST /admin/voters/import (docs/roll.md): `?dryRun=1` (the default) checks the file
 * and answers the report; `?dryRun=0` applies it, all or nothing. The CSV comes as the body
 * (`text/csv`) or as the multipart field `file` (the PWA's upload, with progress).
 */
import type { Context } from "hono";
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { MAX_ROLL_BYTES, messages, type RollReport } from "@evoting/shared";
import type { AppEnv, Deps } from "../../deps.ts";
import { fail } from "../../http/errors.ts";
import { audit } from "../../http/audit.ts";
import { bumpResultsVersionSql } from "../../services/results/results.ts";
import { RollRefused, RollTooLarge, applyRollPlan, planRollImport } from "../../services/roll/roll-import.ts";

/** Spreadsheets and browsers label CSV files many ways; Windows often says vnd.ms-excel. */
const CSV_TYPES = /^(text\/(csv|plain|comma-separated-values)|application\/(csv|vnd\.ms-excel|octet-stream))\b/i;

async function csvText(c: Context<AppEnv>): Promise<string> {
  const type = c.req.header("content-type") ?? "";
  let bytes: ArrayBuffer;
  if (/^multipart\/form-data/i.test(type)) {
    let form: Record<string, string | File | (string | File)[]>;
    try {
      form = await c.req.parseBody({ all: true });
    } catch {
      fail(400, "Request body must be valid multipart form data");
    }
    const file = form.file;
    if (!(file instanceof File)) fail(400, messages.rollNotCsv);
    bytes = await file.arrayBuffer();
  } else if (CSV_TYPES.test(type)) {
    bytes = await c.req.arrayBuffer();
  } else {
    fail(415, messages.rollNotCsv);
  }
  if (bytes.byteLength > MAX_ROLL_BYTES) fail(413, messages.rollTooLarge);
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    fail(400, messages.rollNotUtf8);
  }
}

export function rollImportRoutes(deps: Deps) {
  const { database, clock, keys } = deps;
  return new Hono<AppEnv>().post(
    "/voters/import",
    // Multipart framing on top of the file itself; the file's own size is checked above.
    bodyLimit({ maxSize: MAX_ROLL_BYTES + 64 * 1024, onError: () => fail(413, messages.rollTooLarge) }),
    async (c) => {
      const flag = c.req.query("dryRun");
      const dryRun = flag !== "0" && flag !== "false";
      const text = await csvText(c);
      let plan;
      try {
        plan = await planRollImport(database, keys, text, clock.now());
      } catch (error) {
        if (error instanceof RollTooLarge) fail(413, error.message);
        if (error instanceof RollRefused) fail(400, error.message);
        throw error;
      }
      const report: RollReport = { dryRun, ...plan.report };
      if (dryRun) return c.json(report);
      if (report.errors.length > 0) return c.json({ ...report, message: messages.rollHasErrors }, 400);

      const registeredChanged = report.created > 0;
      if (!(await applyRollPlan(deps, plan, registeredChanged ? [bumpResultsVersionSql] : []))) fail(409, messages.rollChanged);
      if (registeredChanged) deps.hub.resultsChanged();
      await audit(deps, c, {
        action: "voters.import",
        target: "roll",
        summary: `Imported the voter roll: ${report.total} rows, ${report.created} created, ${report.updated} updated, ${report.unchanged} unchanged`,
      });
      return c.json({ ...report, message: messages.rollImportSuccess });
    },
  );
}
