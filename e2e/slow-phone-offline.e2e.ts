/**
 * A slow phone that loses the network the moment the ballot is on screen. Chromium's CPU is
 * throttled 4x (as Lighthouse's mobile preset does), the service worker controls the page, a
 * position opens, the voter opens /vote and the network drops as soon as the new ballot
 * paints: the page has had no idle moment to keep its own copy of it. Reloaded offline, the
 * new position is there with its candidates (the worker kept the answer as it passed), a vote
 * cast is queued on the device, and back online it is delivered exactly once.
 *
 * Its own server (fresh database), so ballots can be counted exactly.
 */
import type { CDPSession, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ADMIN } from "./support/accounts";
import { openBrowser, signIn, type Browser } from "./support/browser";
import { startServer, type RunningServer } from "./support/global-setup";
import { serverApi, setDeviceOffline, waitForController } from "./support/server-api";
import { expectToast, logout } from "./support/steps";
import { startNetworkSwitch, type NetworkSwitch } from "./support/network-switch";
import { waitForDeviceCopy } from "./support/device-store";

const VOTER = { name: "Chidi Okeke", matric: "2021/5570919", dob: "20030808" };

let server: RunningServer;
let wifi: NetworkSwitch;
let api: ReturnType<typeof serverApi>;
let adminToken = "";
let voter: Browser;
let cdp: CDPSession;
const ids: Record<string, string> = {};

const card = (page: Page, title: string) => page.getByRole("form", { name: title });

beforeAll(async () => {
  server = await startServer();
  api = serverApi(server.baseURL);
  adminToken = await api.login(ADMIN.matric, { password: ADMIN.password });
  await api.setBallotBatch(adminToken, 1);
  await api.createVoter(adminToken, VOTER);
  ids.president = await api.createPosition(adminToken, "President");
  ids.amaka = await api.createCandidate(adminToken, "Amaka Nwosu", ids.president, [79, 70, 229]);
  ids.tunde = await api.createCandidate(adminToken, "Tunde Bakare", ids.president, [217, 119, 6]);
  wifi = await startNetworkSwitch(server.baseURL);
  voter = await openBrowser(wifi.url);
  cdp = await voter.context.newCDPSession(voter.page);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
});

afterAll(async () => {
  await cdp?.detach().catch(() => undefined);
  await voter?.close();
  await wifi?.close();
  await server?.stop();
});

describe("a slow phone offline right after the ballot paints", () => {
  test("a ballot seen for the first time opens offline, and a vote cast there is queued, then delivered once", { timeout: 180_000 }, async () => {
    const { page, context } = voter;
    await signIn(page, VOTER.matric, VOTER.dob, "dob");
    await page.goto("/vote");
    await waitForController(page);
    // The device holds yesterday's ballot: President only.
    await waitForDeviceCopy(page, ["positions", "myVotes"]);

    // A position opens; the voter opens the ballot and the network drops as it paints, before
    // the page has had an idle moment to keep the new ballot itself.
    ids.secretary = await api.createPosition(adminToken, "Secretary");
    ids.kemi = await api.createCandidate(adminToken, "Kemi Ade", ids.secretary, [22, 163, 74]);
    ids.obi = await api.createCandidate(adminToken, "Obi Nnamdi", ids.secretary, [190, 24, 93]);
    await page.reload();
    await card(page, "Secretary").getByRole("radio", { name: "Obi Nnamdi" }).waitFor({ timeout: 60_000 });
    // The phone drops off the network and the app is closed at once (a locked screen, another
    // app): nothing the page meant to do later runs. It is opened again offline.
    await Promise.all([setDeviceOffline(context, wifi, true), page.close()]);
    const page2 = await context.newPage();
    voter.page = page2;
    cdp = await context.newCDPSession(page2);
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
    await page2.goto("/vote");
    const secretary = card(page2, "Secretary");
    await secretary.getByRole("radio", { name: "Kemi Ade" }).waitFor({ timeout: 60_000 });
    await page2.getByTestId("offline-notice").getByText(/^Offline: showing data from \d{2}:\d{2}$/).waitFor({ timeout: 30_000 });
    await secretary.getByRole("radio", { name: "Obi Nnamdi" }).check();
    await secretary.getByRole("button", { name: "Cast Vote" }).click();
    await secretary.getByRole("button", { name: "Queued" }).waitFor({ timeout: 30_000 });
    const results = () => api.call<{ totalVotesCast: number; results: { positionId: string; totalVotes: number }[] }>("/vote/results", { token: adminToken });
    expect((await results()).body.totalVotesCast).toBe(0);

    await setDeviceOffline(context, wifi, false);
    await expectToast(page2, "Vote cast successfully!");
    await secretary.getByRole("button", { name: "Vote Cast" }).waitFor({ timeout: 30_000 });
    await expect.poll(async () => (await results()).body.results.find((r) => r.positionId === ids.secretary)?.totalVotes, { timeout: 20_000 }).toBe(1);
    expect((await results()).body.totalVotesCast).toBe(1);
    const otherDevice = await api.login(VOTER.matric, { dateOfBirth: Number(VOTER.dob) });
    const mine = await api.call<{ positionId: string; candidateId: string }[]>("/vote/my-votes", { token: otherDevice });
    expect(mine.body).toEqual([expect.objectContaining({ positionId: ids.secretary, candidateId: ids.obi })]);
  });

  test("logout leaves no copy of the ballot in the worker's cache", async () => {
    const { page } = voter;
    expect(await page.evaluate(async () => (await caches.keys()).includes("voter-answers"))).toBe(true);
    await logout(page);
    await expect.poll(() => page.evaluate(async () => (await caches.keys()).includes("voter-answers")), { timeout: 20_000 }).toBe(false);
  });
});
