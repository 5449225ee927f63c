/**
 * Offline-first in Chromium: the service worker takes control and the app is
 * installable; with the network cut (`context.setOffline(true)`, which in this Chromium also
 * cuts the service worker's own network) the vote page opens from the device with candidates
 * and photos; a vote cast offline is queued and survives a reload and a new page; back online
 * it is delivered exactly once; a queued vote for a position already voted on another device
 * resolves to the server's choice. Network-only screens say so and disable their buttons.
 *
 * This file runs its own server (fresh database) so it can count ballots exactly without
 * depending on, or disturbing, the other files' election.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ADMIN } from "./support/accounts";
import { audit, openBrowser, signIn, type Browser } from "./support/browser";
import { startServer, type RunningServer } from "./support/global-setup";
import { serverApi, setDeviceOffline, waitForController, waitForStaffScreens } from "./support/server-api";
import { expectToast } from "./support/steps";
import { waitForDeviceCopy } from "./support/device-store";
import { startNetworkSwitch, type NetworkSwitch } from "./support/network-switch";

const OFFLINE_VOTER = { name: "Bisi Adeyemi", matric: "2021/5570909", dob: "20030707" };

let server: RunningServer;
/** The voter's "Wi-Fi": their browser reaches the server only through it. */
let wifi: NetworkSwitch;
let api: ReturnType<typeof serverApi>;
let adminToken = "";
let voter: Browser;
let admin: Browser;
const ids: Record<string, string> = {};

const card = (page: Page, title: string) => page.getByRole("form", { name: title });

beforeAll(async () => {
  server = await startServer();
  api = serverApi(server.baseURL);
  adminToken = await api.login(ADMIN.matric, { password: ADMIN.password });
  // This flow reads each vote in the tallies as soon as it is applied.
  await api.setBallotBatch(adminToken, 1);
  await api.createVoter(adminToken, OFFLINE_VOTER);
  ids.president = await api.createPosition(adminToken, "President");
  ids.secretary = await api.createPosition(adminToken, "Secretary");
  ids.amaka = await api.createCandidate(adminToken, "Amaka Nwosu", ids.president, [79, 70, 229]);
  ids.tunde = await api.createCandidate(adminToken, "Tunde Bakare", ids.president, [217, 119, 6]);
  ids.kemi = await api.createCandidate(adminToken, "Kemi Ade", ids.secretary, [22, 163, 74]);
  ids.obi = await api.createCandidate(adminToken, "Obi Nnamdi", ids.secretary, [190, 24, 93]);
  wifi = await startNetworkSwitch(server.baseURL);
  voter = await openBrowser(wifi.url);
});

afterAll(async () => {
  await Promise.all([voter?.close(), admin?.close()]);
  await wifi?.close();
  await server?.stop();
});

describe("offline-first", () => {
  test("the service worker takes control and the app is installable", async () => {
    const { page } = voter;
    await signIn(page, OFFLINE_VOTER.matric, OFFLINE_VOTER.dob, "dob");
    await page.goto("/vote");
    await waitForController(page);

    const manifestHref = await page.locator("link[rel=manifest]").getAttribute("href");
    expect(manifestHref).toBeTruthy();
    const manifestRes = await page.request.get(new URL(manifestHref!, server.baseURL).href);
    expect(manifestRes.status()).toBe(200);
    const manifest = (await manifestRes.json()) as {
      name: string;
      short_name: string;
      theme_color: string;
      start_url: string;
      display: string;
      icons: { src: string; sizes: string; type: string; purpose?: string }[];
    };
    expect(manifest.name).toBe("CSC E-Voting");
    expect(manifest.short_name).toBeTruthy();
    expect(manifest.theme_color).toMatch(/^#[0-9a-f]{6}$/i);
    expect(manifest.start_url).toBe("/");
    expect(manifest.display).toBe("standalone");
    const any = manifest.icons.filter((i) => (i.purpose ?? "any").split(" ").includes("any"));
    expect(any.map((i) => i.sizes).sort()).toEqual(["192x192", "512x512"]);
    const maskable = manifest.icons.filter((i) => i.purpose?.split(" ").includes("maskable"));
    expect(maskable).toHaveLength(1);
    expect(maskable[0]!.src).not.toBe(any.find((i) => i.sizes === "512x512")!.src);
    for (const icon of manifest.icons) {
      const res = await page.request.get(new URL(icon.src, server.baseURL).href);
      expect(res.status(), icon.src).toBe(200);
      expect(res.headers()["content-type"]).toContain("image/png");
    }
    // Chromium's own installability check (manifest + icons + a controlling worker).
    const cdp = await voter.context.newCDPSession(page);
    const { installabilityErrors } = (await cdp.send("Page.getInstallabilityErrors")) as {
      installabilityErrors: { errorId: string }[];
    };
    expect(installabilityErrors).toEqual([]);
    await cdp.detach();
  });

  test("with the network cut, /vote opens from the device with candidates and photos", async () => {
    const { page, context } = voter;
    // The worker fetched every photo into its cache once it took control.
    await expect
      .poll(() => page.evaluate(async () => (await (await caches.open("candidate-photos")).keys()).length), { timeout: 20_000 })
      .toBe(4);
    // And the page kept its own copy of the ballot and of the voter's votes.
    await waitForDeviceCopy(page, ["positions", "myVotes"]);

    await setDeviceOffline(context, wifi, true);
    await page.reload();
    await card(page, "President").getByRole("radio", { name: "Amaka Nwosu" }).waitFor();
    await card(page, "Secretary").getByRole("radio", { name: "Obi Nnamdi" }).waitFor();
    // Every candidate photo shows (decoded from the worker's cache, not a broken image).
    const photos = page.locator("form img");
    await expect.poll(() => photos.count()).toBe(4);
    await expect
      .poll(() => photos.evaluateAll((imgs) => imgs.every((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0)))
      .toBe(true);
    await page.getByTestId("offline-notice").getByText(/^Offline: showing data from \d{2}:\d{2}$/).waitFor();
    await page.getByTestId("connection-status").getByText("Offline").waitFor();
    await audit(page, "offline-vote");
  });

  test("a vote cast offline is queued, and stays queued after a reload and in a new page", async () => {
    const { context } = voter;
    let page = voter.page;
    const president = card(page, "President");
    await president.getByRole("radio", { name: "Amaka Nwosu" }).check();
    await president.getByRole("button", { name: "Cast Vote" }).click();
    await president.getByRole("button", { name: "Queued" }).waitFor();
    await president.getByText("Saved on this device, will be sent when you are back online").waitFor();
    await page.getByTestId("voting-queued-count").waitFor();
    await audit(page, "offline-queued");

    await page.reload();
    await card(page, "President").getByRole("button", { name: "Queued" }).waitFor();
    await expect(card(page, "President").getByRole("radio", { name: "Amaka Nwosu" }).isChecked()).resolves.toBe(true);

    // The app is closed and opened again, still without a network.
    await page.close();
    page = await context.newPage();
    voter.page = page;
    await page.goto("/vote");
    await card(page, "President").getByRole("button", { name: "Queued" }).waitFor();
    const totals = await api.call<{ totalVotesCast: number }>("/vote/results", { token: adminToken });
    expect(totals.body.totalVotesCast).toBe(0);
  });

  test("back online: delivered once; a vote already cast on another device wins over the queued one", async () => {
    const { page, context } = voter;
    // Queued here for Secretary...
    const secretary = card(page, "Secretary");
    await secretary.getByRole("radio", { name: "Kemi Ade" }).check();
    await secretary.getByRole("button", { name: "Cast Vote" }).click();
    await secretary.getByRole("button", { name: "Queued" }).waitFor();
    // ...while the same voter votes Obi on another device (straight to the server).
    const otherDevice = await api.login(OFFLINE_VOTER.matric, { dateOfBirth: Number(OFFLINE_VOTER.dob) });
    const elsewhere = await api.call("/vote", {
      method: "POST",
      token: otherDevice,
      headers: { "Idempotency-Key": crypto.randomUUID() },
      body: JSON.stringify({ positionId: ids.secretary, candidateId: ids.obi }),
    });
    expect(elsewhere.status).toBe(201);

    await setDeviceOffline(context, wifi, false);
    await expectToast(page, "Vote cast successfully!");
    await card(page, "President").getByRole("button", { name: "Vote Cast" }).waitFor();
    await card(page, "President").getByText("✓ Your vote has been recorded").waitFor();

    await expectToast(page, "your queued vote was not needed");
    await secretary.getByRole("button", { name: "Vote Cast" }).waitFor();
    await secretary.getByText(/your queued vote was not needed/).waitFor();
    await expect(secretary.getByRole("radio", { name: "Obi Nnamdi" }).isChecked()).resolves.toBe(true);
    await page.getByTestId("connection-status").getByText("Online").waitFor({ state: "attached" });
    await expect(page.getByTestId("offline-notice").count()).resolves.toBe(0);
    await audit(page, "offline-delivered");

    // The server holds exactly one ballot per position, whatever the replays. Ballots reach the
    // tallies a moment after the vote is answered (the mixer applies them apart).
    const results = () =>
      api.call<{ totalVotesCast: number; results: { positionId: string; totalVotes: number }[] }>("/vote/results", { token: adminToken });
    const byPosition = async () => Object.fromEntries((await results()).body.results.map((r) => [r.positionId, r.totalVotes]));
    await expect.poll(byPosition, { timeout: 10_000 }).toEqual({ [ids.president]: 1, [ids.secretary]: 1 });
    expect((await results()).body.totalVotesCast).toBe(1);
    const mine = await api.call<{ positionId: string; candidateId: string }[]>("/vote/my-votes", { token: otherDevice });
    expect(Object.fromEntries(mine.body.map((v) => [v.positionId, v.candidateId]))).toEqual({
      [ids.president]: ids.amaka,
      [ids.secretary]: ids.obi,
    });
  });

  test("screens that need the network say so and disable their buttons offline", async () => {
    admin = await openBrowser(server.baseURL);
    const { page, context } = admin;
    await signIn(page, ADMIN.matric, ADMIN.password, "password");
    await page.goto("/admin/users");
    await waitForController(page);
    await page.getByRole("button", { name: "Create User" }).waitFor();
    // Opening one staff screen online caches them all; a voter's phone never downloads them.
    await waitForStaffScreens(page);
    await setDeviceOffline(context, wifi, true);
    await page.getByText("This needs a connection. You are offline.").waitFor();
    await expect(page.getByRole("button", { name: "Create User" }).isDisabled()).resolves.toBe(true);
    await audit(page, "offline-admin-users");

    // Opened offline from the cached shell.
    await page.goto("/admin/positions");
    await page.getByText("This needs a connection. You are offline.").waitFor();
    await expect(page.getByRole("button", { name: "Create Position" }).isDisabled()).resolves.toBe(true);
    await page.goto("/settings");
    await page.getByRole("button", { name: "Update Email" }).waitFor();
    await expect(page.getByRole("button", { name: "Update Email" }).isDisabled()).resolves.toBe(true);
    await expect(page.getByRole("button", { name: "Update Password" }).isDisabled()).resolves.toBe(true);

    await setDeviceOffline(context, wifi, false);
    await expect.poll(() => page.getByRole("button", { name: "Update Email" }).isEnabled()).toBe(true);
  });
});
