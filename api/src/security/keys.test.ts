/** Sealing: every seal draws its own random IV, and only its own context opens it. */
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { keysFromMaster, seal, unseal } from "./keys.ts";

describe("seal", () => {
  it("never reuses an IV, even for the same value and context, and each value opens only under its context", () => {
    const keys = keysFromMaster(randomBytes(32));
    const ivs = new Set<string>();
    for (let i = 0; i < 2_000; i++) {
      const sealed = seal(keys, `value ${i}`, `ctx:${i}`);
      ivs.add(sealed.split(".")[0]);
      if (i % 97 === 0) {
        expect(unseal(keys, sealed, `ctx:${i}`)).toBe(`value ${i}`);
        expect(() => unseal(keys, sealed, `ctx:${i + 1}`)).toThrow();
      }
    }
    expect(ivs.size).toBe(2_000);
    const same = [seal(keys, "same", "ctx"), seal(keys, "same", "ctx")];
    expect(same[0].split(".")[0]).not.toBe(same[1].split(".")[0]);
    expect(same[0]).not.toBe(same[1]);
  });
});
