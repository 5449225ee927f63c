/**
 * Election administration in Chromium: on polling day the admin extends a running position's end time from
 * Manage Positions' 'Edit' (times in the browser's zone, Africa/Lagos, stored in UTC) and
 * cannot pull it before now; the Election Settings page changes the title every page shows;
 * with 'Unopposed Positions' switched to 'Yes or No' there (off by default, docs/product.md), a voter
 * votes 'No' on an unopposed position and the results count it apart. Runs its own
 * server (fresh database), so counts are exact.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ADMIN } from "./support/accounts";
import { audit, openBrowser, signIn, type Browser } from "./support/browser";
import { startServer, type RunningServer } from "./support/global-setup";
import { serverApi } from "./support/server-api";
import { expectToast, localDateTime } from "./support/steps";

const VOTER = { name: "Kemi Ojo", matric: "2022/5570311", dob: "20040102" };
const HOUR = 3_600_000;

let server: RunningServer;
let api: ReturnType<typeof serverApi>;
let adminToken = "";
let admin: Browser;
let voter: Browser;
const ids: Record<string, string> = {};

beforeAll(async () => {
  server = await startServer();
  api = serverApi(server.baseURL);
  adminToken = await api.login(ADMIN.matric, { password: ADMIN.password });
  // This flow reads each vote in the tallies as soon as it is applied.
  await api.setBallotBatch(adminToken, 1);
  ids.chair = await api.createPosition(adminToken, "Polling Day Chair");
  await api.createCandidate(adminToken, "Zainab Bello", ids.chair, [200, 60, 60]);
  await api.createCandidate(adminToken, "Yusuf Garba", ids.chair, [60, 200, 60]);
  ids.treasurer = await api.createPosition(adminToken, "Treasurer");
  ids.emeka = await api.createCandidate(adminToken, "Emeka Obi", ids.treasurer, [60, 60, 200]);
  await api.createVoter(adminToken, VOTER);
  [admin, voter] = await Promise.all([openBrowser(server.baseURL), openBrowser(server.baseURL)]);
});

afterAll(async () => {
  await Promise.all([admin?.close(), voter?.close()]);
  await server?.stop();
});

describe("polling day", () => {
  test("the admin extends a running position's end time; it cannot be pulled before now", async () => {
    const { page } = admin;
    await signIn(page, ADMIN.matric, ADMIN.password, "password");
    await page.goto("/admin/manage-positions");
    await page.getByRole("button", { name: "Edit Polling Day Chair" }).click();
    const dialog = page.getByRole("dialog", { name: "Edit Position" });
    await dialog.waitFor();
    // Opened an hour ago: its start stays as it is; the zone is named beside the times.
    await dialog.getByText("Your local time (Africa/Lagos)").first().waitFor();

    await dialog.getByLabel("End Time").fill(await localDateTime(page, -10 * 60_000));
    await dialog.getByRole("button", { name: "Save Changes" }).click();
    await dialog.getByText("The end time cannot be moved to before now").waitFor();

    const later = await localDateTime(page, 5 * HOUR);
    await dialog.getByLabel("End Time").fill(later);
    await audit(page, "edit-position");
    await dialog.getByRole("button", { name: "Save Changes" }).click();
    await expectToast(page, "Position updated successfully!");
    await dialog.waitFor({ state: "detached" });

    const { body } = await api.call<{ _id: string; endTime: string; startTime: string }[]>("/admin/positions", { token: adminToken });
    const chair = body.find((p) => p._id === ids.chair)!;
    // Stored in UTC: the wall-clock minute typed in Lagos, an exact instant on the server.
    expect(Math.abs(Date.parse(chair.endTime) - (Date.now() + 5 * HOUR))).toBeLessThan(2 * 60_000);
    expect(chair.endTime.endsWith("Z")).toBe(true);
    expect(Date.parse(chair.startTime)).toBeLessThan(Date.now());
  });

  test("Election Settings: a new title shows on the banner and the login page", async () => {
    const { page } = admin;
    await page.goto("/admin");
    await page.getByRole("main").getByRole("link", { name: /^Election Settings/ }).click();
    await page.getByRole("heading", { name: "Election Settings" }).waitFor();
    const title = page.getByLabel("Election Title");
    // The form fills in once the settings have loaded.
    await expect.poll(() => title.inputValue()).toBe("Department Elections");
    await title.fill("SUG Elections 2026");
    await page.getByLabel("Start Time").fill(await localDateTime(page, -2 * HOUR));
    await page.getByLabel("End Time").fill(await localDateTime(page, 6 * HOUR));
    await audit(page, "election-settings");
    await page.getByRole("button", { name: "Save Settings" }).click();
    await expectToast(page, "Election settings saved");
    const { body } = await api.call<{ title: string }>("/election/public");
    expect(body.title).toBe("SUG Elections 2026");
  });
});

describe("an unopposed position", () => {
  test("the voter sees the candidate with Yes and No, votes No, and results count it apart", async () => {
    // Yes/No is an election setting, off by default: the admin switches it on.
    const settings = admin.page;
    await settings.goto("/admin/election");
    const unopposed = settings.getByLabel("Unopposed Positions");
    await expect(unopposed.inputValue()).resolves.toBe("single");
    await unopposed.selectOption({ label: "Yes or No" });
    await settings.getByRole("button", { name: "Save Settings" }).click();
    await expectToast(settings, "Election settings saved");
    const { body: election } = await api.call<{ unopposed: string }>("/election", { token: adminToken });
    expect(election.unopposed).toBe("yes-no");

    const { page } = voter;
    await page.goto("/login");
    await page.getByTestId("login-election-title").filter({ hasText: "SUG Elections 2026" }).waitFor();
    await signIn(page, VOTER.matric, VOTER.dob, "dob");
    await page.getByRole("heading", { name: "SUG Elections 2026" }).waitFor();
    await page.goto("/vote");
    const card = page.getByRole("form", { name: "Treasurer" });
    await card.getByText("Emeka Obi is the only candidate: vote Yes or No").waitFor();
    await card.getByRole("radio", { name: "Yes" }).waitFor();
    await card.getByRole("radio", { name: "No" }).check();
    await audit(page, "unopposed-vote");
    await card.getByRole("button", { name: "Cast Vote" }).click();
    await card.getByText(/Your vote has been recorded/).waitFor();
    await card.getByText(/for No/).waitFor();
    await expect(card.getByRole("radio", { name: "No" }).isChecked()).resolves.toBe(true);

    // Ballots are applied by the mixer in shuffled batches (docs/decisions/0003): wait for it.
    const treasurer = async () => {
      const { body } = await api.call<{ results: { positionId: string; totalVotes: number; noVotes: number; breakdown: { votes: number }[] }[] }>("/vote/results", { token: adminToken });
      return body.results.find((r) => r.positionId === ids.treasurer)!;
    };
    await expect.poll(async () => (await treasurer()).totalVotes, { timeout: 15_000 }).toBe(1);
    expect(await treasurer()).toMatchObject({ totalVotes: 1, noVotes: 1, breakdown: [{ votes: 0 }] });

    await page.goto("/results?tab=detailed");
    await page.getByRole("heading", { name: "Treasurer" }).waitFor();
    await page.getByText(/1 vote · No ahead/).waitFor();
  });
});
