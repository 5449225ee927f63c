/**
 * 'Forgot password?' end to end: a voter with a password and an email asks for a link on the
 * sign-in screen, the server mails it to a real SMTP server started here (smtp-server), the
 * link opens /reset-password in the browser, the new password is chosen, and the voter signs
 * in with it; the old password and the used link no longer work.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openBrowser, signIn, type Browser } from "./support/browser";
import { ADMIN } from "./support/accounts";
import { startServer, type RunningServer } from "./support/global-setup";
import { serverApi } from "./support/server-api";
import { startTestSmtp, textOf, type TestSmtp } from "../api/src/test/smtp";

const VOTER = { name: "Funke Adebayo", matric: "2021/5570777", dob: "20030115", password: "old-secret-1", email: "funke@uniport.edu.ng" };
let smtp: TestSmtp;
let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  smtp = await startTestSmtp();
  server = await startServer({ SMTP_URL: smtp.url });
  const api = serverApi(server.baseURL);
  const admin = await api.login(ADMIN.matric, { password: ADMIN.password });
  await api.createVoter(admin, VOTER);
  const voter = await api.login(VOTER.matric, { dateOfBirth: Number(VOTER.dob) });
  const put = (path: string, json: unknown) => api.call(path, { method: "PUT", token: voter, body: JSON.stringify(json) });
  expect((await put("/auth/password", { currentPassword: VOTER.dob, newPassword: VOTER.password })).status).toBe(200);
  expect((await put("/auth/email", { email: VOTER.email })).status).toBe(200);
  browser = await openBrowser(server.baseURL);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await smtp?.stop();
});

describe("Forgot password?", () => {
  test("from the sign-in screen to signing in with the new password", async () => {
    const { page } = browser;
    await page.goto("/login");
    await page.getByLabel("Matriculation Number").fill(VOTER.matric);
    await page.getByRole("link", { name: "Forgot password?" }).click();
    await page.waitForURL("**/reset-password?**");
    expect(await page.getByLabel("Matriculation Number").inputValue()).toBe(VOTER.matric);
    await page.getByRole("button", { name: "Send Link" }).click();
    await page.getByRole("status").filter({ hasText: "a link to reset the password is on its way" }).waitFor();

    await expect.poll(() => smtp.received.length, { timeout: 20_000 }).toBe(1);
    expect(smtp.received[0].to).toEqual([VOTER.email]);
    const text = textOf(smtp.received[0].raw);
    const link = /(http:\/\/127\.0\.0\.1:\d+\/reset-password\?token=[A-Za-z0-9_.-]+)/.exec(text)?.[1];
    expect(link, "the message carries the reset link").toBeTruthy();
    expect(link?.startsWith(server.baseURL)).toBe(true);

    await page.goto(link ?? "");
    await page.getByLabel("New Password").fill("new-secret-9");
    await page.getByLabel("Confirm Password").fill("new-secret-9");
    await page.getByRole("button", { name: "Reset Password" }).click();
    await page.waitForURL("**/login");
    await page.getByText("Your password has been reset. Sign in with the new password.").first().waitFor();

    await signIn(page, VOTER.matric, "new-secret-9", "password");
    expect(new URL(page.url()).pathname).toBe("/");

    const api = serverApi(server.baseURL);
    const old = await api.call("/auth/login", { method: "POST", body: JSON.stringify({ matricNumber: VOTER.matric, password: VOTER.password }) });
    expect(old.status).toBe(401);
    const token = new URL(link ?? "").searchParams.get("token");
    const reused = await api.call("/auth/password-reset/confirm", { method: "POST", body: JSON.stringify({ token, newPassword: "third-secret-1" }) });
    expect(reused.status).toBe(400);
  });
});
