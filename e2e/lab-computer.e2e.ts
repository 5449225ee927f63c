/**
 * The shared lab computer in Chromium: after 'Logout' nothing of the voter stays in
 * the browser (IndexedDB rows, queued votes and ballot tickets), only the election's candidate
 * photos; 'Logout' with votes still queued warns first and lets the voter stay signed in. A
 * session that ends without 'Logout' (the server answers 401) keeps only the votes waiting to
 * be sent, which go once the voter signs in again.
 *
 * Its own server (fresh database) so ballots can be counted exactly.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ADMIN } from "./support/accounts";
import { audit, openBrowser, signIn, type Browser } from "./support/browser";
import { startServer, type RunningServer } from "./support/global-setup";
import { startNetworkSwitch, type NetworkSwitch } from "./support/network-switch";
import { deviceRows } from "./support/device-store";
import { serverApi, setDeviceOffline, waitForController } from "./support/server-api";

const LAB_VOTER = { name: "Tolu Bello", matric: "2021/5570818", dob: "20040404" };

let server: RunningServer;
let wifi: NetworkSwitch;
let api: ReturnType<typeof serverApi>;
let adminToken = "";
let voter: Browser;
const ids: Record<string, string> = {};

const card = (page: Page, title: string) => page.getByRole("form", { name: title });

const cutNetwork = (offline: boolean) => setDeviceOffline(voter.context, wifi, offline);

async function queueVote(page: Page, position: string, candidate: string) {
  const form = card(page, position);
  await form.getByRole("radio", { name: candidate }).check();
  await form.getByRole("button", { name: "Cast Vote" }).click();
  await form.getByRole("button", { name: "Queued" }).waitFor();
}

const votesCast = async () => (await api.call<{ totalVotesCast: number }>("/vote/results", { token: adminToken })).body.totalVotesCast;

beforeAll(async () => {
  server = await startServer();
  api = serverApi(server.baseURL);
  adminToken = await api.login(ADMIN.matric, { password: ADMIN.password });
  // This flow reads each vote in the tallies as soon as it is applied.
  await api.setBallotBatch(adminToken, 1);
  await api.createVoter(adminToken, LAB_VOTER);
  ids.president = await api.createPosition(adminToken, "President");
  ids.secretary = await api.createPosition(adminToken, "Secretary");
  await api.createCandidate(adminToken, "Amaka Nwosu", ids.president, [79, 70, 229]);
  await api.createCandidate(adminToken, "Tunde Bakare", ids.president, [217, 119, 6]);
  await api.createCandidate(adminToken, "Kemi Ade", ids.secretary, [22, 163, 74]);
  await api.createCandidate(adminToken, "Obi Nnamdi", ids.secretary, [190, 24, 93]);
  wifi = await startNetworkSwitch(server.baseURL);
  voter = await openBrowser(wifi.url);
});

afterAll(async () => {
  await voter?.close();
  await wifi?.close();
  await server?.stop();
});

describe("the shared lab computer", () => {
  test("'Logout' with a vote queued warns; 'Stay signed in' keeps it; 'Log out anyway' leaves nothing of the voter", async () => {
    const { page } = voter;
    await signIn(page, LAB_VOTER.matric, LAB_VOTER.dob, "dob");
    await page.goto("/vote");
    await waitForController(page);
    await expect
      .poll(() => page.evaluate(async () => (await (await caches.open("candidate-photos")).keys()).length), { timeout: 20_000 })
      .toBe(4);

    await cutNetwork(true);
    await queueVote(page, "President", "Amaka Nwosu");
    await page.getByRole("banner").getByRole("button", { name: "Logout" }).click();
    const warning = page.getByRole("alertdialog");
    await warning.getByText(/^You have 1 vote waiting to be sent\./).waitFor();
    await audit(page, "lab-logout-warning");
    await warning.getByRole("button", { name: "Stay signed in" }).click();
    await warning.waitFor({ state: "detached" });
    await card(page, "President").getByRole("button", { name: "Queued" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/vote");

    await page.getByRole("banner").getByRole("button", { name: "Logout" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Log out anyway" }).click();
    await page.waitForURL("**/login");
    await expect
      .poll(async () => Object.values(await deviceRows(page)).reduce((n, rows) => n + rows.length, 0), { timeout: 10_000 })
      .toBe(0);
    await expect(page.evaluate(() => localStorage.getItem("authToken") ?? localStorage.getItem("user"))).resolves.toBeNull();
    // The election's photos are the same for everyone: they may stay.
    await expect(page.evaluate(async () => (await (await caches.open("candidate-photos")).keys()).length)).resolves.toBe(4);

    // Back online, nothing is sent for the voter who left: the device holds neither the vote
    // nor a session to send it with (both shown empty above), so there is nothing to wait out.
    await cutNetwork(false);
    expect(await votesCast()).toBe(0);
  });

  test("a session that expires keeps only the outbox; the queued vote goes at the next sign-in", async () => {
    const { page } = voter;
    await signIn(page, LAB_VOTER.matric, LAB_VOTER.dob, "dob");
    await page.goto("/vote");
    // One vote delivered (my votes, with its candidate's name, are now kept on the device)...
    const secretary = card(page, "Secretary");
    await secretary.getByRole("radio", { name: "Kemi Ade" }).check();
    await secretary.getByRole("button", { name: "Cast Vote" }).click();
    await secretary.getByRole("button", { name: "Vote Cast" }).waitFor();
    await expect.poll(async () => (await deviceRows(page)).cache.length).toBeGreaterThan(0);
    // ...and one queued offline.
    await cutNetwork(true);
    await queueVote(page, "President", "Tunde Bakare");

    // The session ends on the server (as when it expires); the app learns it from a 401.
    const token = await page.evaluate(() => localStorage.getItem("authToken"));
    expect((await api.call("/auth/logout", { method: "POST", token: token ?? "" })).status).toBe(204);
    await cutNetwork(false);
    await page.reload();
    await page.waitForURL("**/login");

    await expect
      .poll(async () => {
        const rows = await deviceRows(page);
        return { cache: rows.cache.length, outcomes: rows.outcomes.length, outbox: rows.outbox.length, marks: rows.marks.map((m) => m.state) };
      }, { timeout: 10_000 })
      .toEqual({ cache: 0, outcomes: 0, outbox: 1, marks: ["queued"] });
    expect((await deviceRows(page)).outbox[0]).toMatchObject({ candidateName: "Tunde Bakare" });
    expect(await votesCast()).toBe(1);

    await signIn(page, LAB_VOTER.matric, LAB_VOTER.dob, "dob");
    await page.goto("/vote");
    await card(page, "President").getByRole("button", { name: "Vote Cast" }).waitFor();
    const tallies = async () => {
      const results = await api.call<{ results: { positionId: string; totalVotes: number }[] }>("/vote/results", { token: adminToken });
      return Object.fromEntries(results.body.results.map((r) => [r.positionId, r.totalVotes]));
    };
    // Ballots reach the tallies a moment after the vote is answered (they are applied apart).
    await expect.poll(tallies, { timeout: 10_000 }).toEqual({ [ids.president]: 1, [ids.secretary]: 1 });
  });
});
