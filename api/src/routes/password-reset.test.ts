/**
 * 'Forgot password?' through HTTP, the link read from a real SMTP server started here: the same
 * answer whatever the account, a link valid 30 minutes that works once and ends every session,
 * and requests limited per account like sign-ins.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mailText, messages } from "@evoting/shared";
import { createTestApp, type TestApp } from "../test/harness.ts";
import { startTestSmtp, textOf, type TestSmtp } from "../test/smtp.ts";

const APP_URL = "https://vote.uniport.test";
let t: TestApp;
let smtp: TestSmtp;
let admin: string;
const ADA = { matricNumber: "2020/5570001", password: "ada-secret-1" };

beforeEach(async () => {
  smtp = await startTestSmtp();
  t = await createTestApp({ config: { mail: { smtpUrl: smtp.url, appUrl: APP_URL, queue: { pollMs: 60_000 } } } });
  admin = await t.adminToken();
  const csv = ["matricNumber,name,dateOfBirth,email", "2020/5570001,Ada Obi,20020515,ada@uniport.edu.ng", "2020/5570002,Bola Ade,20010101,bola@uniport.edu.ng", "2020/5570003,Chi Eze,20030303,"].join("\n");
  expect((await t.request("/admin/voters/import?dryRun=0", { method: "POST", token: admin, body: csv, headers: { "content-type": "text/csv" } })).status).toBe(200);
  // Ada and Chi chose passwords; Bola still signs in by date of birth.
  for (const [matricNumber, dob, password] of [["2020/5570001", 20020515, ADA.password], ["2020/5570003", 20030303, "chi-secret-1"]] as const) {
    const { token } = await t.login(matricNumber, { dateOfBirth: dob });
    expect((await t.request("/auth/password", { method: "PUT", token, json: { currentPassword: String(dob), newPassword: password } })).status).toBe(200);
  }
});
afterEach(async () => {
  await t.close();
  await smtp.stop();
});

const ask = (matricNumber: string) => t.request("/auth/password-reset", { method: "POST", json: { matricNumber } });
const confirm = (token: string, newPassword: string) => t.request("/auth/password-reset/confirm", { method: "POST", json: { token, newPassword } });

/** Waits for the requests' background writes (`queued` reset messages), then sends them. */
async function deliver(queued: number) {
  const count = async () => Number((await t.database.client.execute("SELECT count(*) AS n FROM mail_messages WHERE kind = 'password-reset'")).rows[0].n);
  await expect.poll(count).toBe(queued);
  await t.deps.mail.drain();
}

function linkTo(address: string): string {
  const mail = smtp.received.findLast((m) => m.to[0] === address);
  const match = /https:\/\/vote\.uniport\.test\/reset-password\?token=([A-Za-z0-9_.-]+)/.exec(textOf(mail?.raw ?? ""));
  if (!match) throw new Error(`no reset link mailed to ${address}`);
  return match[1];
}

describe("password reset by email", () => {
  it("answers the same for any account; mails a link only to a password account with an email", async () => {
    const answers = [];
    for (const matric of [ADA.matricNumber, "2020/5570002", "2020/5570003", "2020/5570999"]) {
      const res = await ask(matric);
      answers.push([res.status, await res.json()]);
    }
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    expect(answers[0]).toEqual([202, { message: mailText.resetRequested }]);
    await deliver(1);
    expect(smtp.received.map((m) => m.to[0])).toEqual(["ada@uniport.edu.ng"]);
    const text = textOf(smtp.received[0].raw);
    expect(text).toContain("within 30 minutes");
    expect(text).not.toContain(ADA.password);
    expect(text).not.toContain("20020515");
  });

  it("sets the new password once, ends every session, and the old password stops working", async () => {
    const before = [await t.login(ADA.matricNumber, { password: ADA.password }), await t.login(ADA.matricNumber, { password: ADA.password })];
    await ask(ADA.matricNumber);
    await deliver(1);
    const token = linkTo("ada@uniport.edu.ng");

    const res = await confirm(token, "brand-new-1");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ message: mailText.resetDone });
    for (const s of before) expect((await t.request("/auth/profile", { token: s.token })).status).toBe(401);
    expect((await t.request("/auth/login", { method: "POST", json: { matricNumber: ADA.matricNumber, password: ADA.password } })).status).toBe(401);
    await t.login(ADA.matricNumber, { password: "brand-new-1" });

    const again = await confirm(token, "another-one-1");
    expect(again.status).toBe(400);
    expect((await again.json()).message).toBe(mailText.resetLinkInvalid);
    await t.login(ADA.matricNumber, { password: "brand-new-1" });
  });

  it("refuses a link after 30 minutes, a forged one, and a short password", async () => {
    await ask(ADA.matricNumber);
    await deliver(1);
    const token = linkTo("ada@uniport.edu.ng");
    expect((await confirm(token, "abc")).status).toBe(400);
    expect((await (await confirm(token, "abc")).json()).message).toBe(messages.passwordTooShort);
    const [body, mac] = token.split(".");
    expect((await confirm(`${body}.${mac.slice(1)}A`, "brand-new-1")).status).toBe(400);
    t.clock.advance(30 * 60_000 + 1);
    expect((await confirm(token, "brand-new-1")).status).toBe(400);
    await t.login(ADA.matricNumber, { password: ADA.password });
  });

  it("limits requests per account like sign-ins, without locking the account's sign-in", async () => {
    const statuses = [];
    for (let i = 0; i < 7; i++) statuses.push((await ask(ADA.matricNumber)).status);
    expect(statuses.slice(0, 5)).toEqual([202, 202, 202, 202, 202]);
    expect(statuses.slice(5)).toEqual([429, 429]);
    await deliver(5);
    expect(smtp.received.filter((m) => m.to[0] === "ada@uniport.edu.ng")).toHaveLength(5);
    await t.login(ADA.matricNumber, { password: ADA.password });
  });
});
