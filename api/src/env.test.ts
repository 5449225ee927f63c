import { describe, expect, it } from "vitest";
import { parseEnv } from "./env.ts";

describe("TRUST_PROXY_HOPS", () => {
  it("defaults to one proxy, takes a count, and refuses nonsense", () => {
    expect(parseEnv({ TRUST_PROXY: "1" })).toMatchObject({ TRUST_PROXY: true, TRUST_PROXY_HOPS: 1 });
    expect(parseEnv({ TRUST_PROXY: "1", TRUST_PROXY_HOPS: "2" }).TRUST_PROXY_HOPS).toBe(2);
    const exit = (code?: number) => {
      throw new Error(`exit ${code}`);
    };
    const realExit = process.exit;
    const realError = console.error;
    process.exit = exit as typeof process.exit;
    console.error = () => {};
    try {
      expect(() => parseEnv({ TRUST_PROXY_HOPS: "0" })).toThrow("exit 1");
      expect(() => parseEnv({ TRUST_PROXY_HOPS: "two" })).toThrow("exit 1");
    } finally {
      process.exit = realExit;
      console.error = realError;
    }
  });
});
