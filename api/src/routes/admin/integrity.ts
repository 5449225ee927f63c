/**
 * /admin/integrity: the last integrity check (services/accountability/ballot-integrity.ts)
 * for the Admin Panel's card, and `POST /admin/integrity/check` to run one now (admins;
 * observers read the result). A run on demand is audited.
 */
import { Hono } from "hono";
import type { IntegrityStatus } from "@evoting/shared";
import type { AppEnv, Deps } from "../../deps.ts";
import { audit } from "../../http/audit.ts";
import type { IntegrityRecord } from "../../services/accountability/ballot-integrity.ts";

const toStatus = (r: IntegrityRecord | null): IntegrityStatus =>
  r ? { ok: r.ok, at: new Date(r.at).toISOString(), trigger: r.trigger, problems: r.problems } : { ok: null, at: null, trigger: null, problems: [] };

export function integrityRoutes(deps: Deps) {
  return new Hono<AppEnv>()
    .get("/integrity", async (c) => c.json(toStatus(await deps.integrity.last())))
    .post("/integrity/check", async (c) => {
      const record = await deps.integrity.run("admin");
      await audit(deps, c, {
        action: "integrity.check",
        target: "election",
        summary: record.ok ? "Ran the integrity check: passed" : `Ran the integrity check: ${record.problems.length} problem${record.problems.length === 1 ? "" : "s"}`,
      });
      return c.json(toStatus(record));
    });
}
