/**
 * A polling station through a network outage (issue 14), in Chromium: the admin creates the
 * station and assigns an officer on the Polling Stations page; the officer signs in on the
 * station device, opens the station ('Ready for offline use'), and the network is cut (the
 * relay the offline suite uses). Two voters vote at the station, one of whom voted on their
 * phone first; back online, the server holds exactly one ballot per voter and position and
 * the station lists the one refusal (voter and position, never a choice).
 *
 * Runs its own server (fresh database) so it can count ballots exactly.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ADMIN } from "./support/accounts";
import { audit, openBrowser, signIn, type Browser } from "./support/browser";
import { startServer, type RunningServer } from "./support/global-setup";
import { startNetworkSwitch, type NetworkSwitch } from "./support/network-switch";
import { serverApi, setDeviceOffline, waitForController } from "./support/server-api";
import { expectToast } from "./support/steps";

const OFFICER = { name: "Femi Officer", matric: "2019/5570777", password: "officer-e2e-pass" };
const PHONE_VOTER = { name: "Zainab Musa", matric: "2021/5570301", dob: "20030101" };
const BOOTH_VOTER = { name: "Emeka Obi", matric: "2021/5570302", dob: "20020202" };

let server: RunningServer;
/** The station's Wi-Fi: its browser reaches the server only through this relay. */
let wifi: NetworkSwitch;
let api: ReturnType<typeof serverApi>;
let adminToken = "";
let station: Browser;
let admin: Browser;
const ids: Record<string, string> = {};

const card = (page: Page, title: string) => page.getByRole("form", { name: title });

/** The officer looks the voter up, starts the ballot, the voter chooses and confirms. */
async function voteAtStation(page: Page, voter: { name: string; matric: string }, picks: Record<string, string>) {
  await page.getByLabel("Matric number or name").fill(voter.matric);
  await page.getByRole("button", { name: `Start ballot for ${voter.name}` }).click();
  for (const [position, candidate] of Object.entries(picks)) {
    await card(page, position).getByRole("radio", { name: candidate }).check();
  }
  await page.getByRole("button", { name: "Confirm ballot" }).click();
  await page.getByRole("button", { name: "Submit ballot" }).click();
  await page.getByTestId("station-notice").getByText(`Ballot taken for ${voter.name}`).waitFor();
  // Back at the look-up: nothing of the voter's choices is left on screen.
  for (const candidate of Object.values(picks)) await expect(page.getByText(candidate).count()).resolves.toBe(0);
}

beforeAll(async () => {
  server = await startServer();
  api = serverApi(server.baseURL);
  adminToken = await api.login(ADMIN.matric, { password: ADMIN.password });
  const account = (json: object) => api.post("/admin/users", json, adminToken);
  expect((await account({ name: OFFICER.name, matricNumber: OFFICER.matric, role: "officer", password: OFFICER.password })).status).toBe(201);
  for (const v of [PHONE_VOTER, BOOTH_VOTER]) {
    expect((await account({ name: v.name, matricNumber: v.matric, dateOfBirth: Number(v.dob) })).status).toBe(201);
  }
  ids.President = await api.createPosition(adminToken, "President");
  ids.Secretary = await api.createPosition(adminToken, "Secretary");
  ids.amaka = await api.createCandidate(adminToken, "Amaka Nwosu", ids.President, [79, 70, 229]);
  ids.tunde = await api.createCandidate(adminToken, "Tunde Bakare", ids.President, [217, 119, 6]);
  await api.createCandidate(adminToken, "Kemi Ade", ids.Secretary, [22, 163, 74]);
  await api.createCandidate(adminToken, "Obi Nnamdi", ids.Secretary, [190, 24, 93]);
  wifi = await startNetworkSwitch(server.baseURL);
  station = await openBrowser(wifi.url);
  admin = await openBrowser(server.baseURL);
});

afterAll(async () => {
  await Promise.all([station?.close(), admin?.close()]);
  await wifi?.close();
  await server?.stop();
});

describe("polling station", () => {
  test("the admin creates a station and assigns an officer", async () => {
    const { page } = admin;
    await signIn(page, ADMIN.matric, ADMIN.password, "password");
    await page.getByRole("link", { name: /Polling Stations/ }).first().click();
    await page.getByLabel("Station name").fill("Library Hall 1");
    await page.getByRole("button", { name: "Create Station" }).click();
    await expectToast(page, "Polling station created successfully!");
    await page.getByLabel("Officer matric number for Library Hall 1").fill(OFFICER.matric);
    await page.getByRole("button", { name: "Assign Officer" }).click();
    await expectToast(page, "Officer assigned");
    await page.getByTestId("station-Library Hall 1").getByText(OFFICER.name).waitFor();
    await audit(page, "admin-stations");
  });

  test("the officer sets the station up; it works through an outage and delivers each ballot once", async () => {
    const { page, context } = station;
    await signIn(page, OFFICER.matric, OFFICER.password, "password");
    await page.waitForURL("**/station");
    await waitForController(page);
    // Officers see nothing else.
    await page.goto("/vote");
    await page.waitForURL("**/station");

    await page.getByRole("button", { name: "Open Library Hall 1" }).click();
    await page.getByTestId("station-readiness").getByText("Ready for offline use").waitFor({ timeout: 30_000 });
    await expect(page.getByTestId("station-readiness").textContent()).resolves.toMatch(/station data from \d{2}:\d{2}/);

    await setDeviceOffline(context, wifi, true);
    // The phone voter votes on their own phone, online, before reaching the station.
    const phoneToken = await api.login(PHONE_VOTER.matric, { dateOfBirth: Number(PHONE_VOTER.dob) });
    const phone = await api.post("/vote", { positionId: ids.President, candidateId: ids.tunde }, phoneToken);
    expect(phone.status).toBe(201);

    await voteAtStation(page, PHONE_VOTER, { President: "Amaka Nwosu", Secretary: "Kemi Ade" });
    await voteAtStation(page, BOOTH_VOTER, { President: "Amaka Nwosu", Secretary: "Obi Nnamdi" });
    await page.getByTestId("station-queue").getByText("2 ballots waiting to be delivered.").waitFor();
    // Never the same voter twice on this device.
    await page.getByLabel("Matric number or name").fill(BOOTH_VOTER.matric);
    await expect(page.getByRole("button", { name: `Start ballot for ${BOOTH_VOTER.name}` }).isDisabled()).resolves.toBe(true);
    await audit(page, "station-offline");

    await setDeviceOffline(context, wifi, false);
    await page.getByTestId("station-queue").getByText("Every ballot delivered.").waitFor({ timeout: 30_000 });
    const refusals = page.getByTestId("station-refusals").getByRole("listitem");
    await refusals.first().getByText(`${PHONE_VOTER.name} (${PHONE_VOTER.matric})`).waitFor();
    await expect(refusals.count()).resolves.toBe(1);
    await expect(refusals.first().textContent()).resolves.toMatch(/President: Already voted for this position elsewhere/);
    await expect(refusals.first().textContent()).resolves.not.toMatch(/Amaka|Tunde/);

    // The server: one ballot per voter and position, the phone's choice kept. Ballots reach
    // the tallies through the mixer (a fraction of a second), hence the poll.
    await expect.poll(async () => (await api.call<{ totalVotesCast: number; results: { totalVotes: number }[] }>("/vote/results", { token: adminToken })).body.results.map((r) => r.totalVotes), { timeout: 10_000 }).toEqual([2, 2]);
    const results = await api.call<{ results: { positionId: string; totalVotes: number; breakdown: { candidateId: string; votes: number }[] }[] }>("/vote/results", { token: adminToken });
    const president = results.body.results.find((r) => r.positionId === ids.President)!;
    const secretary = results.body.results.find((r) => r.positionId === ids.Secretary)!;
    expect(president.totalVotes).toBe(2);
    expect(president.breakdown.find((b) => b.candidateId === ids.tunde)?.votes).toBe(1);
    expect(secretary.totalVotes).toBe(2);
    const tally = await api.call<{ total: number }>("/admin/stations/ballots", { token: adminToken });
    expect(tally.body.total).toBe(2);
  });

  test("the results screen shows ballots per station to the admin", async () => {
    const { page } = admin;
    await page.goto("/results");
    await page.getByTestId("station-ballots").getByRole("cell", { name: "Library Hall 1" }).waitFor();
    const row = page.getByTestId("station-ballots").getByRole("row").nth(1);
    await expect(row.getByRole("cell").nth(1).textContent()).resolves.toBe("2");
  });
});
