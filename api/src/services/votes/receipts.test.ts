/**
 * Ballot ids made ahead on the writer thread (issue 13, tenth pass): each comes with the
 * receipt code of that very id, and none is handed out twice. The answers' receipts against
 * the published list are tested through HTTP in routes/receipts.test.ts.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/harness.ts";
import { newBallot, receiptCode } from "./receipts.ts";

let t: TestApp;
afterEach(async () => t.close());

describe("fresh ballot ids", () => {
  it("come with their own receipt code, made here or on the writer thread, never twice", async () => {
    t = await createTestApp();
    expect(t.database.filePath).not.toBeNull(); // the writer thread makes them
    await t.database.writer.submit(["SELECT 1"]); // the thread is up
    const seen = new Set<string>();
    for (let round = 0; round < 6; round++) {
      // More than one batch, with time for the thread to answer between rounds.
      for (let i = 0; i < 100; i++) {
        const { ballotId, receipt } = newBallot(t.database, t.deps.keys);
        expect(receipt).toBe(receiptCode(t.deps.keys, ballotId));
        expect(ballotId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
        seen.add(ballotId);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(seen.size).toBe(600);
  });
});
