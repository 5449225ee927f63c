/**
 * The election's life in Chromium: a voter votes while polling is open; once it has closed the
 * admin declares the results from the Admin Panel (confirm dialog, toast); the voter finds the
 * archive in Past Elections with the results and their own receipt among the counted ballots;
 * the admin starts a new election with the positions copied and the roll kept; the same voter
 * votes again in it. Ballots wait in batches of 10 (the default), so the first election's vote
 * reaches the tallies only when the declaration applies it. Runs its own server (fresh database, no offline grace, so the close is
 * the end itself) and shortens the window through the API rather than waiting an hour.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ADMIN } from "./support/accounts";
import { audit, openBrowser, signIn, type Browser } from "./support/browser";
import { startServer, type RunningServer } from "./support/global-setup";
import { serverApi } from "./support/server-api";
import { expectToast, localDateTime } from "./support/steps";

const VOTER = { name: "Ifeoma Eze", matric: "2022/5570411", dob: "20030405" };
const HOUR = 3_600_000;

let server: RunningServer;
let api: ReturnType<typeof serverApi>;
let adminToken = "";
let admin: Browser;
let voter: Browser;
let positionId = "";

beforeAll(async () => {
  server = await startServer({ VOTE_GRACE_MINUTES: "0" });
  api = serverApi(server.baseURL);
  adminToken = await api.login(ADMIN.matric, { password: ADMIN.password });
  const { body: settings } = await api.call<Record<string, unknown>>("/election", { token: adminToken });
  const window = { startTime: new Date(Date.now() - HOUR).toISOString(), endTime: new Date(Date.now() + 3 * HOUR).toISOString() };
  expect((await api.call("/admin/election", { method: "PUT", token: adminToken, body: JSON.stringify({ ...settings, title: "SUG Elections 2026", ...window }) })).status).toBe(200);
  positionId = await api.createPosition(adminToken, "Welfare Director");
  await api.createCandidate(adminToken, "Amina Yusuf", positionId, [200, 80, 80]);
  await api.createCandidate(adminToken, "Chidi Okafor", positionId, [80, 80, 200]);
  const created = await api.post("/admin/users", { name: VOTER.name, matricNumber: VOTER.matric, dateOfBirth: Number(VOTER.dob) }, adminToken);
  expect(created.status).toBe(201);
  [admin, voter] = await Promise.all([openBrowser(server.baseURL), openBrowser(server.baseURL)]);
});

afterAll(async () => {
  await Promise.all([admin?.close(), voter?.close()]);
  await server?.stop();
});

async function castVote(page: Browser["page"], position: string, candidate: string) {
  await page.goto("/vote");
  const card = page.getByRole("form", { name: position });
  await card.getByRole("radio", { name: candidate }).check();
  await card.getByRole("button", { name: "Cast Vote" }).click();
  await card.getByText(/Your vote has been recorded/).waitFor();
}

describe("an election's life", () => {
  test("polling: the voter votes", async () => {
    await signIn(voter.page, VOTER.matric, VOTER.dob, "dob");
    await castVote(voter.page, "Welfare Director", "Chidi Okafor");
  });

  test("declaration: refused before the close, then declared from the Admin Panel", async () => {
    const { page } = admin;
    await signIn(page, ADMIN.matric, ADMIN.password, "password");
    const card = page.getByRole("region", { name: "Election", exact: true });
    await card.getByText(/results can be declared from/).waitFor();
    await card.getByRole("button", { name: "Declare results" }).click();
    const dialog = page.getByRole("dialog", { name: "Declare results?" });
    await dialog.getByRole("button", { name: "Declare results" }).click();
    await expectToast(page, "Results can be declared once voting has closed");

    // Close polling now: the position's and the election's ends a moment from now.
    const end = new Date(Date.now() + 1_500).toISOString();
    expect((await api.call(`/admin/positions/${positionId}`, { method: "PATCH", token: adminToken, body: JSON.stringify({ endTime: end }) })).status).toBe(200);
    const { body: settings } = await api.call<Record<string, unknown>>("/election", { token: adminToken });
    expect((await api.call("/admin/election", { method: "PUT", token: adminToken, body: JSON.stringify({ ...settings, endTime: end }) })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 2_500));

    await page.reload();
    await card.getByText(/voting has closed\. The results can be declared/).waitFor();
    await card.getByRole("button", { name: "Declare results" }).click();
    await dialog.waitFor();
    await audit(page, "declare-results");
    await dialog.getByRole("button", { name: "Declare results" }).click();
    await expectToast(page, "Results declared");
    await card.getByText(/results declared/).waitFor();
  });

  test("the archive: the voter finds the results and their receipt in Past Elections", async () => {
    const { page } = voter;
    const voterToken = await api.login(VOTER.matric, { dateOfBirth: Number(VOTER.dob) });
    const { body: mine } = await api.call<{ receipt: string }[]>("/vote/my-votes", { token: voterToken });
    expect(mine).toHaveLength(1);
    await page.goto("/");
    await page.getByRole("navigation").getByRole("link", { name: "Past Elections" }).first().click();
    await page.getByRole("heading", { name: "Past Elections" }).waitFor();
    await page.getByRole("link", { name: "SUG Elections 2026" }).click();
    await page.getByRole("heading", { name: "SUG Elections 2026" }).waitFor();
    await page.getByRole("heading", { name: "Welfare Director" }).first().waitFor();
    await page.getByText("Elected: Chidi Okafor").waitFor();
    await page.getByLabel("Find a receipt").fill(mine[0].receipt);
    await page.getByRole("list", { name: "Receipts for Welfare Director" }).getByText(mine[0].receipt).waitFor();
    await audit(page, "past-election");
  });

  test("a new election: positions copied, roll kept, and the voter votes again", async () => {
    const { page } = admin;
    await page.goto("/admin");
    await page.getByRole("link", { name: "Start a new election" }).click();
    await page.getByRole("heading", { name: "Start a new election" }).waitFor();
    await page.getByLabel("Election Title").fill("SUG By-Election 2026");
    await page.getByLabel("Subtitle").fill("Welfare Director");
    await page.getByLabel("Start Time").fill(await localDateTime(page, -5 * 60_000));
    await page.getByLabel("End Time").fill(await localDateTime(page, 3 * HOUR));
    await expect(page.getByLabel(/Copy the positions of SUG Elections 2026/).isChecked()).resolves.toBe(true);
    await expect(page.getByLabel("Keep the voter roll").isChecked()).resolves.toBe(true);
    await audit(page, "start-election");
    await page.getByRole("button", { name: "Start Election" }).click();
    const dialog = page.getByRole("dialog", { name: "Start a new election?" });
    await dialog.getByRole("button", { name: "Start Election" }).click();
    await expectToast(page, "New election started");
    await page.waitForURL("**/admin");

    const { body: positions } = await api.call<{ _id: string; title: string; candidates: unknown[] }[]>("/admin/positions", { token: adminToken });
    expect(positions.map((p) => [p.title, p.candidates.length])).toEqual([["Welfare Director", 0]]);
    expect(positions[0]._id).not.toBe(positionId);
    await api.createCandidate(adminToken, "Bisi Adeyemi", positions[0]._id, [80, 200, 80]);

    const v = voter.page;
    await v.goto("/");
    await v.getByRole("heading", { name: "SUG By-Election 2026" }).waitFor();
    await castVote(v, "Welfare Director", "Bisi Adeyemi");
    // Counted in the new election (its ballot waits for a batch of 10 to reach the tallies);
    // the old election's vote is not among this election's votes.
    const voterToken = await api.login(VOTER.matric, { dateOfBirth: Number(VOTER.dob) });
    const { body: mine } = await api.call<{ positionId: string; candidateName: string }[]>("/vote/my-votes", { token: voterToken });
    expect(mine.map((m) => [m.positionId, m.candidateName])).toEqual([[positions[0]._id, "Bisi Adeyemi"]]);
    // The declared election is unchanged in its archive.
    const { body: archive } = await api.call<{ receipts: { total: number }[] }>("/elections/1", { token: adminToken });
    expect(archive.receipts[0].total).toBe(1);
  });
});
