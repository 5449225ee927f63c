/**
 * A polling station through a network outage (issues 14 and 34), in Chromium: the admin creates
 * the station and assigns an officer on the Polling Stations page; the officer signs in on the
 * station device, opens the station with their password ('Ready for offline use'), and the
 * network is cut (the relay the offline suite uses). A voter who voted on their phone first
 * votes at the station; the device is reloaded, offline, and the officer unlocks it with their
 * password; the next voter tries to cancel and to log out, then votes; every time the officer
 * takes the device back with their password. The officer signs out; back online, another
 * officer (not of this station) signs in first and delivers nothing, the ballots staying on
 * the device with the reason; then the station's officer signs in and everything is delivered:
 * exactly one ballot per voter and position, and the one refusal (voter and position, never a
 * choice). One position is verifiable: the booth voter types their credential at the
 * confirmation, offline (a mistyped one, then one not on the position's list, refused right
 * there), the device encrypts that ballot and shows its tracker; once delivered,
 * the tracker is on the public board, once, and `belenios-tool election verify` accepts the archive.
 *
 * Runs its own server (fresh database) so it can count ballots exactly.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { generateCredential, publicCredential } from "@evoting/shared/belenios";
import { toolVerifies } from "../shared/src/belenios/belenios-tool.test-support";
import { ADMIN } from "./support/accounts";
import { audit, openBrowser, signIn, type Browser } from "./support/browser";
import { startServer, type RunningServer } from "./support/global-setup";
import { startNetworkSwitch, type NetworkSwitch } from "./support/network-switch";
import { serverApi, setDeviceOffline, waitForController, waitForStaffScreens } from "./support/server-api";
import { expectToast } from "./support/steps";

const OFFICER = { name: "Femi Officer", matric: "2019/5570777", password: "officer-e2e-pass" };
const OTHER_OFFICER = { name: "Gbenga Officer", matric: "2019/5570778", password: "other-e2e-pass" };
const PHONE_VOTER = { name: "Zainab Musa", matric: "2021/5570301", dob: "20030101" };
const BOOTH_VOTER = { name: "Emeka Obi", matric: "2021/5570302", dob: "20020202" };
/** The booth voter's slip for the verifiable position (the credential authority's job, done through HTTP). */
const BOOTH_CREDENTIAL = generateCredential();
/** A slip made for another election: well-formed, but not on Treasurer's list. */
const OTHER_ELECTION_CREDENTIAL = generateCredential();
const HOUR = 3_600_000;

let server: RunningServer;
/** The station's Wi-Fi: its browser reaches the server only through this relay. */
let wifi: NetworkSwitch;
let api: ReturnType<typeof serverApi>;
let adminToken = "";
let station: Browser;
let admin: Browser;
const ids: Record<string, string> = {};

const card = (page: Page, title: string) => page.getByRole("form", { name: title });

/** The officer takes the device back from the voter with their password. */
async function takeBack(page: Page) {
  const form = page.getByRole("form", { name: "Take the device back" });
  await form.getByLabel("Officer password").fill(OFFICER.password);
  await form.getByRole("button", { name: "Take the device back" }).click();
}

/**
 * The officer looks the voter up, starts the ballot, the voter chooses and confirms (typing
 * their credential when a verifiable position is chosen), the officer takes the device back.
 * Returns the trackers the voter was shown.
 */
async function voteAtStation(page: Page, voter: { name: string; matric: string }, picks: Record<string, string>, credential?: string): Promise<string[]> {
  await page.getByLabel("Matric number or name").fill(voter.matric.replace("/", "-"));
  await page.getByRole("button", { name: `Start ballot for ${voter.name}` }).click();
  for (const [position, candidate] of Object.entries(picks)) {
    await card(page, position).getByRole("radio", { name: candidate }).check();
  }
  await page.getByRole("button", { name: "Confirm ballot" }).click();
  if (credential) await page.getByLabel("Credential").fill(credential);
  await page.getByRole("button", { name: "Submit ballot" }).click();
  await page.getByRole("heading", { name: "Ballot submitted" }).waitFor({ timeout: 30_000 });
  const trackers = await page.getByTestId("station-tracker").locator("code").allTextContents();
  // Nothing of the choices is on the screen the officer is handed back; nor the credential.
  for (const candidate of Object.values(picks)) await expect(page.getByText(candidate).count()).resolves.toBe(0);
  if (credential) await expect(page.getByText(credential).count()).resolves.toBe(0);
  await takeBack(page);
  await page.getByTestId("station-notice").getByText(`Ballot taken for ${voter.name}`).waitFor();
  for (const candidate of Object.values(picks)) await expect(page.getByText(candidate).count()).resolves.toBe(0);
  // The take-back forgets the trackers.
  await expect(page.getByTestId("station-tracker").count()).resolves.toBe(0);
  return trackers;
}

beforeAll(async () => {
  server = await startServer();
  api = serverApi(server.baseURL);
  adminToken = await api.login(ADMIN.matric, { password: ADMIN.password });
  // This flow reads each vote in the tallies as soon as it is applied.
  await api.setBallotBatch(adminToken, 1);
  const account = (json: object) => api.post("/admin/users", json, adminToken);
  for (const o of [OFFICER, OTHER_OFFICER]) {
    expect((await account({ name: o.name, matricNumber: o.matric, role: "officer", password: o.password })).status).toBe(201);
  }
  for (const v of [PHONE_VOTER, BOOTH_VOTER]) {
    expect((await account({ name: v.name, matricNumber: v.matric, dateOfBirth: Number(v.dob) })).status).toBe(201);
  }
  ids.President = await api.createPosition(adminToken, "President");
  ids.Secretary = await api.createPosition(adminToken, "Secretary");
  ids.amaka = await api.createCandidate(adminToken, "Amaka Nwosu", ids.President, [79, 70, 229]);
  ids.tunde = await api.createCandidate(adminToken, "Tunde Bakare", ids.President, [217, 119, 6]);
  await api.createCandidate(adminToken, "Kemi Ade", ids.Secretary, [22, 163, 74]);
  await api.createCandidate(adminToken, "Obi Nnamdi", ids.Secretary, [190, 24, 93]);
  // Treasurer is verifiable: the server its trustee, the booth voter's credential among others, locked.
  const window = { startTime: new Date(Date.now() - HOUR).toISOString(), endTime: new Date(Date.now() + 3 * HOUR).toISOString() };
  const treasurer = await api.post<{ _id: string; belenios: { uuid: string } }>("/admin/positions", { title: "Treasurer", verifiable: true, ...window }, adminToken);
  expect(treasurer.status).toBe(201);
  ids.Treasurer = treasurer.body._id;
  ids.treasurerUuid = treasurer.body.belenios.uuid;
  await api.createCandidate(adminToken, "Ngozi Eze", ids.Treasurer, [14, 116, 144]);
  await api.createCandidate(adminToken, "Bola Ade", ids.Treasurer, [161, 98, 7]);
  expect((await api.post("/admin/trustees", { name: "Server", server: true }, adminToken)).status).toBe(201);
  const publicCredentials = [BOOTH_CREDENTIAL, generateCredential(), generateCredential()].map((c) => publicCredential(c, ids.treasurerUuid));
  expect((await api.call(`/admin/positions/${ids.Treasurer}/credentials`, { method: "PUT", token: adminToken, body: JSON.stringify({ publicCredentials }) })).status).toBe(200);
  // Started an hour ago: it may have locked itself once trustees and credentials were in.
  expect([200, 409]).toContain((await api.post(`/admin/positions/${ids.Treasurer}/lock`, {}, adminToken)).status);
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

  test("the officer sets the station up; it works through an outage and a reload, and delivers each ballot once", async () => {
    const { page, context } = station;
    await signIn(page, OFFICER.matric, OFFICER.password, "password");
    await page.waitForURL("**/station");
    await waitForController(page);
    await waitForStaffScreens(page);
    // Officers see nothing else.
    await page.goto("/vote");
    await page.waitForURL("**/station");

    await page.getByRole("button", { name: "Open Library Hall 1" }).click();
    const opening = page.getByRole("form", { name: "Open Library Hall 1" });
    await opening.getByLabel("Officer password").fill("not-the-password");
    await opening.getByRole("button", { name: "Open station" }).click();
    await opening.getByText("Wrong password").waitFor();
    const signInToken = await page.evaluate(() => localStorage.getItem("authToken"));
    await opening.getByLabel("Officer password").fill(OFFICER.password);
    await opening.getByRole("button", { name: "Open station" }).click();
    await page.getByTestId("station-readiness").getByText("Ready for offline use").waitFor({ timeout: 30_000 });
    await expect(page.getByTestId("station-readiness").textContent()).resolves.toMatch(/station data from \d{2}:\d{2}/);
    // The device now keeps only its station token; the sign-in token is revoked, and the
    // station token reaches nothing but the station.
    const deviceToken = await page.evaluate(() => localStorage.getItem("authToken"));
    expect(deviceToken).not.toBe(signInToken);
    expect((await api.call("/auth/profile", { token: signInToken! })).status).toBe(401);
    expect((await api.call("/election", { token: deviceToken! })).status).toBe(403);
    await page.getByTestId("station-connection").getByText("Online").waitFor();

    await setDeviceOffline(context, wifi, true);
    await page.getByTestId("station-connection").getByText("Offline").waitFor({ timeout: 15_000 });
    // The phone voter votes on their own phone, online, before reaching the station.
    const phoneToken = await api.login(PHONE_VOTER.matric, { dateOfBirth: Number(PHONE_VOTER.dob) });
    const phone = await api.post("/vote", { positionId: ids.President, candidateId: ids.tunde }, phoneToken);
    expect(phone.status).toBe(201);

    await voteAtStation(page, PHONE_VOTER, { President: "Amaka Nwosu", Secretary: "Kemi Ade" });
    await page.getByTestId("station-notice").getByText("it will be delivered when the network returns").waitFor();

    // A reload while offline: the station is locked, and the officer's password unlocks it without the network.
    await page.reload();
    const unlock = page.getByRole("form", { name: "Unlock the station" });
    await unlock.getByLabel("Officer password").fill(OFFICER.password);
    await unlock.getByRole("button", { name: "Unlock" }).click();
    // Ready again offline: the verifiable ballot's encryption worker comes from the device.
    await page.getByTestId("station-readiness").getByText("Ready for offline use").waitFor({ timeout: 30_000 });

    // The next voter holds the device: only the ballot shows, no Logout; cancelling hands it back to the officer.
    await page.getByLabel("Matric number or name").fill(BOOTH_VOTER.matric.slice(-7));
    await page.getByRole("button", { name: `Start ballot for ${BOOTH_VOTER.name}` }).click();
    await card(page, "President").getByRole("radio", { name: "Tunde Bakare" }).check();
    await expect(page.getByRole("button", { name: "Logout" }).count()).resolves.toBe(0);
    await expect(page.getByLabel("Matric number or name").count()).resolves.toBe(0);
    await page.getByRole("button", { name: "Cancel ballot" }).click();
    await page.getByRole("heading", { name: "Ballot cancelled" }).waitFor();
    await expect(page.getByRole("button", { name: "Logout" }).count()).resolves.toBe(0);
    await expect(page.getByText("Tunde Bakare").count()).resolves.toBe(0);
    await page.goBack();
    await page.getByRole("heading", { name: "Ballot cancelled" }).waitFor();
    await takeBack(page);
    await page.getByTestId("station-notice").getByText(`Ballot cancelled for ${BOOTH_VOTER.name}`).waitFor();

    // The booth voter also votes for the verifiable Treasurer: a mistyped credential, then an unlisted one, are refused at the booth, nothing saved.
    await page.getByLabel("Matric number or name").fill(BOOTH_VOTER.matric.replace("/", "-"));
    await page.getByRole("button", { name: `Start ballot for ${BOOTH_VOTER.name}` }).click();
    await card(page, "Treasurer").getByRole("radio", { name: "Bola Ade" }).check();
    await page.getByRole("button", { name: "Confirm ballot" }).click();
    await page.getByLabel("Credential").fill(BOOTH_CREDENTIAL.slice(0, -1) + (BOOTH_CREDENTIAL.endsWith("2") ? "3" : "2"));
    await page.getByRole("button", { name: "Submit ballot" }).click();
    await page.getByText("This credential is not valid").waitFor();
    // A well-formed credential from another election's slip: the station's copy of Treasurer's list refuses it here, offline.
    await page.getByLabel("Credential").fill(OTHER_ELECTION_CREDENTIAL);
    await page.getByRole("button", { name: "Submit ballot" }).click();
    await page.getByText("This credential is not on the list for Treasurer").waitFor();
    await expect(page.getByLabel("Credential").evaluate((field) => field === document.activeElement)).resolves.toBe(true);
    await page.getByRole("button", { name: "Cancel ballot" }).click();
    await takeBack(page);
    await page.getByTestId("station-queue").getByText("1 ballot waiting to be delivered.").waitFor();
    const trackers = await voteAtStation(page, BOOTH_VOTER, { President: "Amaka Nwosu", Secretary: "Obi Nnamdi", Treasurer: "Bola Ade" }, BOOTH_CREDENTIAL);
    expect(trackers).toHaveLength(1);
    expect(trackers[0]).toMatch(/^[A-Za-z0-9+/]{43}$/);
    await page.getByTestId("station-queue").getByText("2 ballots waiting to be delivered.").waitFor();
    // Never the same voter twice on this device.
    await page.getByLabel("Matric number or name").fill(BOOTH_VOTER.matric);
    await expect(page.getByRole("button", { name: `Start ballot for ${BOOTH_VOTER.name}` }).isDisabled()).resolves.toBe(true);
    await audit(page, "station-offline");

    // The officer signs out; the network returns; another officer, not of this station, signs in first.
    await page.getByRole("button", { name: "Logout" }).click();
    await page.waitForURL("**/login");
    await setDeviceOffline(context, wifi, false);
    await signIn(page, OTHER_OFFICER.matric, OTHER_OFFICER.password, "password");
    await page.waitForURL("**/station");
    const waiting = page.getByTestId("station-waiting").getByRole("listitem");
    await waiting.first().getByText("You are not an officer of this polling station").waitFor({ timeout: 30_000 });
    await expect(waiting.count()).resolves.toBe(2);
    await page.getByText("This device is not a polling station").waitFor();
    await page.getByRole("button", { name: "Logout" }).click();
    await page.waitForURL("**/login");

    await signIn(page, OFFICER.matric, OFFICER.password, "password");
    await page.waitForURL("**/station");
    await page.getByTestId("station-queue").getByText("Every ballot delivered.").waitFor({ timeout: 30_000 });
    const refusals = page.getByTestId("station-refusals").getByRole("listitem");
    await refusals.first().getByText(`${PHONE_VOTER.name} (${PHONE_VOTER.matric})`).waitFor();
    await expect(refusals.count()).resolves.toBe(1);
    await expect(refusals.first().textContent()).resolves.toMatch(/President: Already voted for this position elsewhere/);
    await expect(refusals.first().textContent()).resolves.not.toMatch(/Amaka|Tunde/);

    // The server: one ballot per voter and position, the phone's choice kept. Ballots reach
    // the tallies through the mixer (a fraction of a second), hence the poll.
    await expect.poll(async () => (await api.call<{ totalVotesCast: number; results: { totalVotes: number }[] }>("/vote/results", { token: adminToken })).body.results.map((r) => r.totalVotes), { timeout: 10_000 }).toEqual([2, 2, 1]);
    const results = await api.call<{ results: { positionId: string; totalVotes: number; breakdown: { candidateId: string; votes: number }[] }[] }>("/vote/results", { token: adminToken });
    const president = results.body.results.find((r) => r.positionId === ids.President)!;
    const secretary = results.body.results.find((r) => r.positionId === ids.Secretary)!;
    expect(president.totalVotes).toBe(2);
    expect(president.breakdown.find((b) => b.candidateId === ids.tunde)?.votes).toBe(1);
    expect(secretary.totalVotes).toBe(2);
    const tally = await api.call<{ total: number }>("/admin/stations/ballots", { token: adminToken });
    expect(tally.body.total).toBe(2);

    // The verifiable ballot the booth encrypted offline: on the public board once, under the
    // tracker the voter was shown, and the archive passes belenios-tool.
    const board = await api.call<{ trackers: string[] }>(`/positions/${ids.Treasurer}/board`);
    expect(board.body.trackers).toEqual(trackers);
    const archive = await fetch(`${server.baseURL}/api/positions/${ids.Treasurer}/archive.bel`);
    expect(archive.status).toBe(200);
    const dir = mkdtempSync(join(tmpdir(), "station-e2e-"));
    try {
      writeFileSync(join(dir, `${ids.treasurerUuid}.bel`), new Uint8Array(await archive.arrayBuffer()));
      const verdict = toolVerifies(dir);
      expect(verdict.output).toContain("all checks passed");
      expect(verdict.ok).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("the results screen shows ballots per station to the admin", async () => {
    const { page } = admin;
    await page.goto("/results");
    await page.getByTestId("station-ballots").getByRole("cell", { name: "Library Hall 1" }).waitFor();
    const row = page.getByTestId("station-ballots").getByRole("row").nth(1);
    await expect(row.getByRole("cell").nth(1).textContent()).resolves.toBe("2");
  });
});
