/**
 * `node --import tsx bench/accountability.ts` (not part of `npm test`): what the
 * accountability features cost, in process on a temp database.
 *   --entries=5000   audit log size    --ballots=10000   ballots of one closed position
 * Prints: audit appends per second (each its own write, chained and signed), a full chain
 * verification (`npm run audit`, GET /admin/audit/verify), one filtered audit page, and the
 * published receipt list of a position, computed and then served from its cache.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { openDatabase } from "../api/src/db/client.ts";
import { keysFromMaster } from "../api/src/security/keys.ts";
import { auditPage } from "../api/src/routes/admin/audit.ts";
import { AuditLog, verifyAuditChain } from "../api/src/services/accountability/audit-log.ts";
import { ReceiptLists } from "../api/src/services/votes/receipts.ts";
import { intArg, parseArgs } from "./lib/args.ts";
import { tempDir } from "./lib/seed.ts";

const args = parseArgs();
const ENTRIES = intArg(args, "entries", 5_000);
const BALLOTS = intArg(args, "ballots", 10_000);
const tmp = tempDir("accountability");
const database = await openDatabase({ url: `file:${tmp.dbPath}`, synchronous: "NORMAL" });
const keys = keysFromMaster(randomBytes(32));
const auditLog = new AuditLog(database, keys);
const receiptLists = new ReceiptLists(database, keys);
const time = async <T>(fn: () => Promise<T>): Promise<[T, number]> => {
  const t0 = performance.now();
  const value = await fn();
  return [value, performance.now() - t0];
};

try {
  const [, appendMs] = await time(async () => {
    for (let i = 0; i < ENTRIES; i++) {
      await auditLog.append({
        action: i % 10 === 0 ? "auth.login" : "voter.update",
        target: `user:${i}`,
        summary: `Entry ${i}`,
        actor: { id: null, name: i % 2 ? "Ada Admin" : "Bola Admin", matricNumber: `0000/557000${i % 2}` },
        address: "10.0.0.1",
        at: Date.now(),
      });
    }
  });
  const [chain, verifyMs] = await time(() => verifyAuditChain(database, keys.audit));
  const [page, pageMs] = await time(() => auditPage(database, { actor: "bola", action: "voter.update", page: 3 }));

  const positionId = randomUUID();
  const ids = Array.from({ length: BALLOTS }, () => randomUUID());
  await database.client.batch(
    [
      { sql: "INSERT INTO positions (id, title, start_time, end_time, created_at) VALUES (?, 'Bench', 0, 1, 0)", args: [positionId] },
      ...ids.map((id) => ({ sql: "INSERT INTO ballots (id, position_id, choice, candidate_id) VALUES (?, ?, 'abstain', NULL)", args: [id, positionId] })),
    ],
    "write",
  );
  const [receipts, firstMs] = await time(() => receiptLists.of(positionId));
  const [, cachedMs] = await time(() => receiptLists.of(positionId));

  console.log(`audit appends:      ${ENTRIES} in ${(appendMs / 1000).toFixed(1)} s (${Math.round(ENTRIES / (appendMs / 1000))}/s)`);
  console.log(`chain verification: ${chain.entries} entries in ${verifyMs.toFixed(0)} ms, ${chain.problems.length} problems, signed head ${chain.anchor}`);
  console.log(`filtered page:      ${page.items.length} of ${page.total} in ${pageMs.toFixed(1)} ms`);
  console.log(`receipt list:       ${receipts?.length ?? 0} codes in ${firstMs.toFixed(0)} ms first, ${cachedMs.toFixed(1)} ms cached`);
} finally {
  await database.writer.drain();
  database.close();
  tmp.cleanup();
}
