import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { keyPlacementWarning } from "./key-placement.ts";

const made: string[] = [];
afterEach(() => {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe("ballot key placement", () => {
  it("warns when the key file sits in the database's folder outside the temp folder", () => {
    // The database's folder stands in for /var/lib/...: the temp folder is named as another
    // one, so the test holds wherever the checkout lives (CI may clone into /tmp).
    const dir = mkdtempSync(join(tmpdir(), "key-placement-"));
    made.push(dir);
    mkdirSync(join(dir, "keys"));
    const db = join(dir, "evoting.db");
    const otherTemp = join(tmpdir(), "not-this-folder");
    expect(keyPlacementWarning(join(dir, "ballot.key"), db, otherTemp)).toMatch(/lives beside the database/);
    expect(keyPlacementWarning(join(dir, "keys", "ballot.key"), db, otherTemp)).toMatch(/outside the database's folder/);
    expect(keyPlacementWarning(join(homedir(), "elsewhere", "ballot.key"), db, otherTemp)).toBeNull();
  });

  it("stays quiet for BALLOT_KEY, a database in the temp folder, and non-file databases", () => {
    const dir = mkdtempSync(join(tmpdir(), "key-placement-"));
    made.push(dir);
    expect(keyPlacementWarning(null, join(dir, "x.db"))).toBeNull();
    expect(keyPlacementWarning(join(dir, "ballot.key"), join(dir, "x.db"))).toBeNull();
    expect(keyPlacementWarning(join(dir, "ballot.key"), null)).toBeNull();
  });
});
