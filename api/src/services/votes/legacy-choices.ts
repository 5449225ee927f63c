/**
 * Re-seals participations written before fixed-length sealing. Those sealed `{candidateId, candidateName}`
 * unpadded, so their length named the candidate; the migration cannot fix them (it has no
 * key). At start the server re-seals every such row at the fixed length, with no ballot id
 * (none was kept then: such a vote has no receipt). Rows already at the fixed length are
 * not read at all, so this costs one indexed scan once the database is clean.
 */
import type { Database } from "../../db/client.ts";
import type { Keys } from "../../security/keys.ts";
import { sealChoice, unsealChoice } from "./cast.ts";

const BATCH = 500;

export async function resealLegacyChoices(database: Database, keys: Keys): Promise<number> {
  // The length every choice sealed now has (a 256-byte plaintext always seals to this).
  const fixed = sealChoice(keys, "-", "-", { k: "candidate", c: null, b: null }).length;
  let resealed = 0;
  let after = ["", ""];
  for (;;) {
    // Keyset pages over every row not at the fixed length (a legacy row may be longer too);
    // SQL: a row-value comparison, which drizzle has no operator for.
    const rs = await database.client.execute({
      sql: `SELECT voter_id, position_id, sealed_choice FROM participations
             WHERE length(sealed_choice) <> ? AND (voter_id, position_id) > (?, ?)
             ORDER BY voter_id, position_id LIMIT ?`,
      args: [fixed, after[0], after[1], BATCH],
    });
    if (rs.rows.length === 0) return resealed;
    const last = rs.rows[rs.rows.length - 1];
    after = [String(last.voter_id), String(last.position_id)];
    const statements = rs.rows.flatMap((r) => {
      const [voterId, positionId, sealed] = [String(r.voter_id), String(r.position_id), String(r.sealed_choice)];
      let held: ReturnType<typeof unsealChoice>;
      try {
        held = unsealChoice(keys, voterId, positionId, sealed);
      } catch {
        return []; // not sealed under this key (or damaged): nothing to re-seal it with
      }
      if (!held.legacy) return [];
      return [
        {
          // Only if the row is still what was read (a concurrent change wins).
          sql: "UPDATE participations SET sealed_choice = ? WHERE voter_id = ? AND position_id = ? AND sealed_choice = ?",
          args: [sealChoice(keys, voterId, positionId, { k: held.kind, c: held.candidateId, b: held.ballotId }), voterId, positionId, sealed],
        },
      ];
    });
    if (statements.length === 0) continue;
    const results = await database.writer.submit(statements);
    resealed += results.reduce((n, r) => n + r.rowsAffected, 0);
  }
}
