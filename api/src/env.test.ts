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

describe("mail", () => {
  it("defaults to the outbox, a local sender and the server's own address", () => {
    const env = parseEnv({ HOST: "0.0.0.0", PORT: "8080" });
    expect(env).toMatchObject({ MAIL_FROM: "CSC E-Voting <no-reply@localhost>", APP_URL: "http://0.0.0.0:8080", REMINDER_HOURS: 6 });
    expect(env.SMTP_URL).toBeUndefined();
    expect(parseEnv({ APP_URL: "https://vote.uniport.edu.ng/", SMTP_URL: "smtps://u:p@mail.uniport.edu.ng:465" })).toMatchObject({
      APP_URL: "https://vote.uniport.edu.ng",
      SMTP_URL: "smtps://u:p@mail.uniport.edu.ng:465",
    });
  });

  it("refuses a mail server or address that is not one", () => {
    const realExit = process.exit;
    const realError = console.error;
    process.exit = ((code?: number) => {
      throw new Error(`exit ${code}`);
    }) as typeof process.exit;
    console.error = () => {};
    try {
      expect(() => parseEnv({ SMTP_URL: "mail.example.com" })).toThrow("exit 1");
      expect(() => parseEnv({ APP_URL: "vote.example.com" })).toThrow("exit 1");
      expect(() => parseEnv({ REMINDER_HOURS: "-1" })).toThrow("exit 1");
    } finally {
      process.exit = realExit;
      console.error = realError;
    }
  });
});
