/**
 * Nominations in Chromium, end to end: the admin opens nominations in Election Settings; a
 * voter applies from 'Apply to stand' on their home screen with a photo, a manifesto, a
 * proposer and a seconder; each supporter confirms from their own sign-in; the committee
 * approves that application and rejects another with a reason the applicant reads; the
 * approved applicant is on the ballot and gets a vote. Runs its own server (fresh database).
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ADMIN } from "./support/accounts";
import { audit, openBrowser, signIn, type Browser } from "./support/browser";
import { startServer, type RunningServer } from "./support/global-setup";
import { serverApi } from "./support/server-api";
import { testPhoto } from "./support/png";
import { expectToast, localDateTime, logout } from "./support/steps";

const APPLICANT = { name: "Amaka Nwosu", matric: "2022/5570401", dob: "20040301" };
const PROPOSER = { name: "Bayo Adeyemi", matric: "2022/5570402", dob: "20040302" };
const SECONDER = { name: "Chioma Eze", matric: "2022/5570403", dob: "20040303" };
const OTHER = { name: "Dapo Lawal", matric: "2022/5570404", dob: "20040304" };
const HOUR = 3_600_000;

let server: RunningServer;
let api: ReturnType<typeof serverApi>;
let adminToken = "";
let admin: Browser;
let applicant: Browser;
let supporter: Browser;
let positionId = "";

beforeAll(async () => {
  server = await startServer();
  api = serverApi(server.baseURL);
  adminToken = await api.login(ADMIN.matric, { password: ADMIN.password });
  positionId = await api.createPosition(adminToken, "Class Representative");
  for (const v of [APPLICANT, PROPOSER, SECONDER, OTHER]) {
    const created = await api.post("/admin/users", { name: v.name, matricNumber: v.matric, dateOfBirth: Number(v.dob) }, adminToken);
    expect(created.status).toBe(201);
  }
  [admin, applicant, supporter] = await Promise.all([openBrowser(server.baseURL), openBrowser(server.baseURL), openBrowser(server.baseURL)]);
});

afterAll(async () => {
  await Promise.all([admin?.close(), applicant?.close(), supporter?.close()]);
  await server?.stop();
});

describe("nominations and screening", () => {
  test("the admin opens nominations in Election Settings", async () => {
    const { page } = admin;
    await signIn(page, ADMIN.matric, ADMIN.password, "password");
    await page.goto("/admin/election");
    await expect.poll(() => page.getByLabel("Election Title").inputValue()).toBe("Department Elections");
    await page.getByLabel("Nominations Open").fill(await localDateTime(page, -HOUR));
    await page.getByLabel("Nominations Close").fill(await localDateTime(page, 2 * HOUR));
    await page.getByRole("button", { name: "Save Settings" }).click();
    await expectToast(page, "Election settings saved");
    const { body } = await api.call<{ nominationsStart: string; nominationsEnd: string }>("/election", { token: adminToken });
    expect(Date.parse(body.nominationsStart)).toBeLessThan(Date.now());
    expect(Date.parse(body.nominationsEnd)).toBeGreaterThan(Date.now());
  });

  test("a voter applies with a photo, a manifesto, a proposer and a seconder", async () => {
    const { page } = applicant;
    await signIn(page, APPLICANT.matric, APPLICANT.dob, "dob");
    await page.getByRole("link", { name: "Apply to stand" }).click();
    await page.getByRole("heading", { name: "Apply to stand" }).waitFor();
    const select = page.getByLabel("Position", { exact: true });
    await select.locator("option", { hasText: "Class Representative" }).waitFor({ state: "attached" });
    await select.selectOption({ label: "Class Representative" });
    await page.getByLabel("Your Photo").setInputFiles({ name: "me.png", mimeType: "image/png", buffer: testPhoto([200, 120, 60]) });
    await page.getByRole("img", { name: "Selected photo preview" }).waitFor();
    await page.getByLabel("Manifesto").fill("A study room open every evening.");
    await page.getByLabel("Proposer (matric number)").fill(PROPOSER.matric);
    await page.getByLabel("Seconder (matric number)").fill(SECONDER.matric);
    await audit(page, "nominations-apply");
    await page.getByRole("button", { name: "Submit Application" }).click();
    await expectToast(page, "Application submitted!");
    await page.getByText("Awaiting proposer and seconder").waitFor();
  });

  test("the proposer and the seconder each confirm from their own sign-in", async () => {
    const { page } = supporter;
    for (const [who, waiting] of [
      [PROPOSER, "Awaiting seconder"],
      [SECONDER, "Submitted"],
    ] as const) {
      await signIn(page, who.matric, who.dob, "dob");
      const prompt = page.getByRole("region", { name: "Confirm nomination" });
      await prompt.getByText(`${APPLICANT.name} (${APPLICANT.matric}) named you as`).waitFor();
      if (who === PROPOSER) await audit(page, "nominations-confirm-prompt");
      await prompt.getByRole("button", { name: "Confirm" }).click();
      await expectToast(page, "Nomination confirmed");
      await prompt.waitFor({ state: "detached" });
      await logout(page);
      await applicant.page.goto("/nominations");
      await applicant.page.getByText(waiting, { exact: true }).waitFor();
    }
  });

  test("the committee approves one application and rejects another with a reason the applicant reads", async () => {
    // A second application, without supporters: straight to screening.
    const otherToken = await api.login(OTHER.matric, { dateOfBirth: Number(OTHER.dob) });
    const form = new FormData();
    form.append("positionId", positionId);
    form.append("manifesto", "Free printing.");
    form.append("photo", new Blob([new Uint8Array(testPhoto([60, 60, 200]))], { type: "image/png" }), "me.png");
    expect((await api.call("/nominations", { method: "POST", token: otherToken, body: form })).status).toBe(201);

    const { page } = admin;
    await page.goto("/admin");
    await page.getByRole("main").getByRole("link", { name: /^Nominations/ }).click();
    await page.getByRole("heading", { name: "Nominations" }).waitFor();
    await page.getByRole("button", { name: `Approve ${APPLICANT.name}` }).waitFor();
    await audit(page, "nominations-admin");
    await page.getByRole("button", { name: `Approve ${APPLICANT.name}` }).click();
    const approve = page.getByRole("dialog", { name: "Approve Nomination" });
    await approve.getByRole("button", { name: "Approve" }).click();
    await expectToast(page, "Nomination approved: the applicant is now a candidate");
    await approve.waitFor({ state: "detached" });

    await page.getByRole("button", { name: `Reject ${OTHER.name}` }).click();
    const reject = page.getByRole("dialog", { name: "Reject Nomination" });
    await reject.getByLabel("Reason").fill("Outstanding association dues");
    await reject.getByRole("button", { name: "Reject" }).click();
    await expectToast(page, "Nomination rejected");
    await page.getByLabel("State").selectOption({ label: "Approved" });
    await page.getByText(APPLICANT.name).waitFor();
    await expect(page.getByText(OTHER.name).count()).resolves.toBe(0);

    const { page: other } = supporter;
    await signIn(other, OTHER.matric, OTHER.dob, "dob");
    await other.getByRole("link", { name: "Apply to stand" }).click();
    await other.getByText("Reason: Outstanding association dues").waitFor();
    await other.getByText("Rejected", { exact: true }).waitFor();
    await logout(other);
  });

  test("the approved applicant is on the ballot, with their photo, and gets a vote", async () => {
    const { page } = supporter;
    await signIn(page, PROPOSER.matric, PROPOSER.dob, "dob");
    await page.goto("/vote");
    const card = page.getByRole("form", { name: "Class Representative" });
    await card.getByRole("radio", { name: APPLICANT.name }).check();
    await expect(card.locator("img[src^='/api/photos/']").count()).resolves.toBeGreaterThan(0);
    await card.getByRole("button", { name: "Cast Vote" }).click();
    await card.getByText(/Your vote has been recorded/).waitFor();
    const { body } = await api.call<{ name: string; manifesto: string }[]>("/admin/candidates", { token: adminToken });
    expect(body).toEqual([expect.objectContaining({ name: APPLICANT.name, manifesto: "A study room open every evening." })]);
    // The ballot is now published: the applicant can no longer withdraw.
    await applicant.page.goto("/nominations");
    await applicant.page.getByRole("button", { name: "Withdraw application for Class Representative" }).click();
    await applicant.page.getByRole("dialog", { name: "Withdraw Application" }).getByRole("button", { name: "Withdraw" }).click();
    await expectToast(applicant.page, "This position's ballot is published");
  });
});
