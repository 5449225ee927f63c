/**
 * The close and the grace, said plainly, in Chromium on its own server: after 'Close voting now'
 * a voter's Home and Counted Ballots say when voting closed, until when votes cast offline
 * before the close are accepted, and that receipts and the full count follow; and nominations
 * cannot run past the start of voting, so Home never offers 'Apply to stand' during the vote.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ADMIN } from "./support/accounts";
import { PHONE, audit, openBrowser, settled, signIn, type Browser } from "./support/browser";
import { startServer, type RunningServer } from "./support/global-setup";
import { serverApi } from "./support/server-api";

const HOUR = 3_600_000;
const VOTER = { name: "Wale Ire", matric: "2023/5570701", dob: "20050201" };

let server: RunningServer;
let api: ReturnType<typeof serverApi>;
let adminToken = "";
let voter: Browser;

/** "21:51" on the browser's wall clock, as the page prints it. */
const wallTime = (browser: Browser, at: number) =>
  browser.page.evaluate((ms) => {
    const d = new Date(ms);
    return `${String(d.getHours()).padStart(2, "0")}:${String(d.getMinutes()).padStart(2, "0")}`;
  }, at);

beforeAll(async () => {
  // The default grace (10 minutes): the whole test runs inside it.
  server = await startServer({ VOTE_GRACE_MINUTES: "10" });
  api = serverApi(server.baseURL);
  adminToken = await api.login(ADMIN.matric, { password: ADMIN.password });
  await api.createVoter(adminToken, VOTER);
  const { body: settings } = await api.call<Record<string, unknown>>("/election", { token: adminToken });
  const window = { startTime: new Date(Date.now() - HOUR).toISOString(), endTime: new Date(Date.now() + 3 * HOUR).toISOString() };
  const put = await api.call("/admin/election", { method: "PUT", token: adminToken, body: JSON.stringify({ ...settings, title: "SUG Elections 2026", ...window, ballotBatch: 1 }) });
  expect(put.status).toBe(200);
  const ranked = await api.post<{ _id: string }>(
    "/admin/positions",
    { title: "Sports Director", method: "ranked", seats: 1, startTime: window.startTime, endTime: window.endTime },
    adminToken,
  );
  expect(ranked.status, JSON.stringify(ranked.body)).toBe(201);
  const a = await api.createCandidate(adminToken, "Ife Adu", ranked.body._id, [80, 200, 80]);
  const b = await api.createCandidate(adminToken, "Jide Eze", ranked.body._id, [200, 200, 80]);
  const token = await api.login(VOTER.matric, { dateOfBirth: Number(VOTER.dob) });
  const cast = await api.call("/vote", {
    method: "POST",
    token,
    headers: { "Idempotency-Key": crypto.randomUUID() },
    body: JSON.stringify({ positionId: ranked.body._id, ranking: [a, b] }),
  });
  expect(cast.status, JSON.stringify(cast.body)).toBe(201);
  voter = await openBrowser(server.baseURL, PHONE);
  await signIn(voter.page, VOTER.matric, VOTER.dob, "dob");
});

afterAll(async () => {
  await voter?.close();
  await server?.stop();
});

describe("the close and the grace, said plainly", () => {
  test("5a. nominations cannot end after voting starts (400), and Home offers no 'Apply to stand' while voting is on", async () => {
    const { body: settings } = await api.call<Record<string, unknown>>("/election", { token: adminToken });
    const late = { nominationsStart: new Date(Date.now() - 2 * HOUR).toISOString(), nominationsEnd: new Date(Date.now() + HOUR).toISOString() };
    const refused = await api.call<{ message: string }>("/admin/election", { method: "PUT", token: adminToken, body: JSON.stringify({ ...settings, ...late }) });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(/Nominations must close no later than voting starts/);
    const { page } = voter;
    const nominations = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/nominations");
    await page.goto("/");
    await page.getByRole("heading", { name: "SUG Elections 2026" }).waitFor();
    await (await nominations).finished();
    // The answer is in; the frames after it are drawn with whatever it shows.
    await settled(page);
    await expect(page.getByRole("link", { name: "Apply to stand" }).count()).resolves.toBe(0);
    await expect(page.getByText(/Nominations are open/).count()).resolves.toBe(0);
  });

  test("5b. after 'Close voting now', Home and Counted Ballots say when voting closed, until when offline votes count, then receipts and the full count", async () => {
    const closed = await api.post<{ message: string }>("/admin/election/close", {}, adminToken);
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);
    const { body: election } = await api.call<{ endTime: string; voteGraceMinutes: number }>("/election", { token: adminToken });
    expect(election.voteGraceMinutes).toBe(10);
    const end = Date.parse(election.endTime);
    const [closedAt, until] = [await wallTime(voter, end), await wallTime(voter, end + 10 * 60_000)];
    const sentence = `Voting closed at ${closedAt}; votes cast offline before the close are accepted until ${until}; then receipts and the full count.`;

    const { page } = voter;
    await page.goto("/");
    await page.getByText("ENDED", { exact: true }).waitFor();
    await page.getByTestId("voting-closed-notice").getByText(sentence).waitFor();
    const card = page.getByTestId(/^method-card-/).first();
    await card.getByText(`Voting closed at ${closedAt}; the full count follows at ${until}, after the grace for votes cast offline.`).waitFor();
    await expect(page.getByText("The full count follows the close.").count()).resolves.toBe(0);
    await page.getByRole("region", { name: "Your ballot" }).getByText("once they are published.", { exact: false }).waitFor();
    await expect(page.getByText(/once voting closes/).count()).resolves.toBe(0);
    await audit(page, "close-grace-home-390");

    await page.goto("/receipts");
    await page.getByText(sentence).waitFor();
    await expect(page.getByText(/Receipts are published when voting/).count()).resolves.toBe(0);
    await audit(page, "close-grace-receipts-390");

    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto("/");
    await page.getByTestId("voting-closed-notice").getByText(sentence).waitFor();
    // Beside Top Candidates the leaders card is half wide: a ranked card keeps room for its sentence.
    const wide = await page.getByTestId(/^method-card-/).first().boundingBox();
    expect(wide!.width, "the ranked card is squeezed").toBeGreaterThan(280);
    await audit(page, "close-grace-home-1280");
    await page.goto("/receipts");
    await page.getByText(sentence).waitFor();
    await audit(page, "close-grace-receipts-1280");
    await page.setViewportSize(PHONE);
  });
});
