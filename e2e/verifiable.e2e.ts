/**
 * A verifiable position, the voter's side, in Chromium, Firefox and WebKit: the election is set
 * up through HTTP with the shared Belenios code (the server as trustee, the credential
 * authority's credentials, the lock); the voter types a mistyped credential and is told so,
 * then the right one once, casts one vote online and one queued offline (after a reload from
 * the device: the election and the encryption worker come from it), which is delivered exactly
 * once; the tracker computed on the phone is the server's, stays in 'Your Voting Status' after a
 * reload, and is found on the public Ballot Box page; `belenios-tool election verify` passes on
 * the archive served afterwards. Each engine gets its own server (fresh database).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { generateCredential, publicCredential } from "@evoting/shared/belenios";
import { toolVerifies } from "../shared/src/belenios/belenios-tool.test-support";
import { ADMIN } from "./support/accounts";
import { ENGINES, openEngine, type EnginePage, type Query } from "./engines";
import { openBrowser, PHONE, signIn, type Browser } from "./support/browser";
import { setDeviceOffline, waitForController } from "./support/server-api";
import { deviceRows, readDeviceStore } from "./support/device-store";
import { startServer, type RunningServer } from "./support/global-setup";
import { startNetworkSwitch, type NetworkSwitch } from "./support/network-switch";
import { serverApi } from "./support/server-api";
import type { Page } from "playwright-core";

const VOTER = { name: "Zainab Verifier", matric: "2021/5570601", dob: "20030909" };
const HOUR = 3_600_000;

const card = (title: string, inner: Query): Query => ({ ...inner, within: { role: "form", name: title } });
const trackerIn = (title: string) => card(title, { testId: "tracker" });

/**
 * Two verifiable positions (President, Secretary), two candidates each, set up through HTTP
 * with the shared Belenios code: the server as trustee, this voter's public credential among
 * others (the credential authority's job), and the lock.
 */
async function setUpElection(api: ReturnType<typeof serverApi>, admin: string, credential: string): Promise<Record<string, string>> {
  const ids: Record<string, string> = {};
  const window = { startTime: new Date(Date.now() - HOUR).toISOString(), endTime: new Date(Date.now() + 3 * HOUR).toISOString() };
  for (const title of ["President", "Secretary"]) {
    const res = await api.post<{ _id: string; belenios: { uuid: string } }>("/admin/positions", { title, verifiable: true, ...window }, admin);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    ids[title] = res.body._id;
    ids[`${title}:uuid`] = res.body.belenios.uuid;
  }
  await api.createCandidate(admin, "Amaka Nwosu", ids.President, [79, 70, 229]);
  await api.createCandidate(admin, "Tunde Bakare", ids.President, [217, 119, 6]);
  await api.createCandidate(admin, "Kemi Ade", ids.Secretary, [22, 163, 74]);
  await api.createCandidate(admin, "Obi Nnamdi", ids.Secretary, [190, 24, 93]);
  expect((await api.post("/admin/trustees", { name: "Server", server: true }, admin)).status).toBe(201);
  // The credential authority: this voter's credential and two others, public parts only.
  const others = [generateCredential(), generateCredential()];
  for (const title of ["President", "Secretary"]) {
    const uuid = ids[`${title}:uuid`];
    const publicCredentials = [credential, ...others].map((c) => publicCredential(c, uuid));
    const put = await api.call(`/admin/positions/${ids[title]}/credentials`, { method: "PUT", token: admin, body: JSON.stringify({ publicCredentials }) });
    expect(put.status).toBe(200);
    const lock = await api.post(`/admin/positions/${ids[title]}/lock`, {}, admin);
    // Started an hour ago: it may have locked itself once trustees and credentials were in.
    expect([200, 409]).toContain(lock.status);
  }
  return ids;
}

async function expectArchivesVerify(baseURL: string, ids: Record<string, string>, scratch: string) {
  for (const title of ["President", "Secretary"]) {
    const res = await fetch(`${baseURL}/api/positions/${ids[title]}/archive.bel`);
    expect(res.status).toBe(200);
    const dir = mkdtempSync(join(scratch, `${title}-`));
    writeFileSync(join(dir, `${ids[`${title}:uuid`]}.bel`), new Uint8Array(await res.arrayBuffer()));
    const verdict = toolVerifies(dir);
    expect(verdict.output).toContain("all checks passed");
    expect(verdict.ok).toBe(true);
  }
}

// Firefox and WebKit as the cross-engine flows run (e2e/engines, E2E_ENGINES); Chromium below,
// through Playwright like the suite's other Chromium flows (decision 0015).
for (const engine of ENGINES) {
  describe(`verifiable positions, the voter (${engine})`, () => {
    let server: RunningServer;
    let wifi: NetworkSwitch;
    let api: ReturnType<typeof serverApi>;
    let admin = "";
    let page: EnginePage;
    const ids: Record<string, string> = {};
    const credential = generateCredential();
    const trackers: Record<string, string> = {};
    const scratch = mkdtempSync(join(tmpdir(), "verifiable-e2e-"));

    const board = async (positionId: string) =>
      (await api.call<{ fingerprint: string; trackers: string[] }>(`/positions/${positionId}/board`)).body;
    const shownTracker = (title: string) =>
      page.evaluate((t: string) => {
        const form = [...document.querySelectorAll("form")].find((f) => f.querySelector("h2")?.textContent === t);
        return form?.querySelector("[data-testid=tracker] code")?.textContent ?? null;
      }, title);
    const controlled = () => page.evaluate(() => navigator.serviceWorker?.controller?.state === "activated");

    beforeAll(async () => {
      server = await startServer();
      api = serverApi(server.baseURL);
      admin = await api.login(ADMIN.matric, { password: ADMIN.password });
      await api.createVoter(admin, VOTER);
      Object.assign(ids, await setUpElection(api, admin, credential));
      wifi = await startNetworkSwitch(server.baseURL);
      page = await openEngine(engine, wifi.url);
    });

    afterEach(() => wifi?.restore());

    afterAll(async () => {
      await page?.close();
      await wifi?.close();
      await server?.stop();
      rmSync(scratch, { recursive: true, force: true });
    });

    test("the credential is checked, entered once, and a vote cast online shows the server's tracker", async () => {
      await page.goto("/login");
      await page.type({ label: "Matriculation Number" }, VOTER.matric);
      await page.type({ label: "Date of Birth" }, VOTER.dob);
      await page.click({ role: "button", name: "Login" });
      await page.until("signed in", async () => (await page.path()) !== "/login");
      await page.until("the ballot", async () => {
        if ((await page.path()) !== "/vote") await page.goto("/vote");
        return page.find(card("President", { label: "Credential" }));
      }, 30_000);

      await page.click(card("President", { role: "radio", name: "Amaka Nwosu" }));
      // A typo (the last digit changed) fails the slip's checksum: said plainly, nothing sent.
      const typo = credential.slice(0, -1) + (credential.endsWith("2") ? "3" : "2");
      await page.type(card("President", { label: "Credential" }), typo);
      await page.click(card("President", { role: "button", name: "Cast Vote" }));
      await page.waitFor(card("President", { text: "This credential is not valid" }));
      expect((await board(ids.President)).trackers).toEqual([]);

      // Typed without its dashes: the device writes it as the slip does.
      await page.type(card("President", { label: "Credential" }), credential.replace(/-/g, ""));
      await page.click(card("President", { role: "button", name: "Cast Vote" }));
      await page.waitFor(card("President", { role: "button", name: "Vote Cast" }), 30_000);
      await page.waitFor(trackerIn("President"));
      trackers.President = (await shownTracker("President"))!;
      expect((await board(ids.President)).trackers).toEqual([trackers.President]);
      // Entered once: the other verifiable card uses it.
      await page.waitFor(card("Secretary", { testId: "credential-saved" }));
      expect(await page.find(card("Secretary", { label: "Credential" }))).toBe(false);
    });

    test("a vote cast offline is encrypted on the device, queued with its tracker, and delivered exactly once", async () => {
      await page.until("service worker in control", controlled, 30_000).catch(async () => {
        await page.reload();
        await page.until("service worker in control", controlled, 30_000);
      });
      // The worker that encrypts is kept by the service worker once the ballot has shown it.
      await page.until("the ballot worker cached", () =>
        page.evaluate(async () => (await (await caches.open("verifiable-ballot")).keys()).length > 0), 30_000);

      wifi.cut();
      await page.reload();
      await page.waitFor(card("Secretary", { role: "radio", name: "Kemi Ade" }), 30_000);
      await page.waitFor(card("Secretary", { testId: "credential-saved" }), 20_000);
      // The page settles (the offline notice moves the cards down) before anything is clicked.
      await page.waitFor({ text: "Offline: showing data from" }, 20_000);
      // In the middle of the screen: at its top edge the sticky bar would take the click.
      await page.evaluate(() =>
        [...document.querySelectorAll("form")].find((f) => f.querySelector("h2")?.textContent === "Secretary")?.scrollIntoView({ block: "center" }),
      );
      await page.click(card("Secretary", { role: "radio", name: "Kemi Ade" }));
      await page.click(card("Secretary", { role: "button", name: "Cast Vote" }));
      await page.waitFor(card("Secretary", { role: "button", name: "Queued" }), 30_000);
      expect(await page.find(card("Secretary", { label: "Credential" }))).toBe(false);
      await page.waitFor(trackerIn("Secretary"));
      trackers.Secretary = (await shownTracker("Secretary"))!;
      expect(trackers.Secretary).toMatch(/^[A-Za-z0-9+/]{43}$/);
      expect((await board(ids.Secretary)).trackers).toEqual([]);

      wifi.restore();
      await page.waitFor(card("Secretary", { role: "button", name: "Vote Cast" }), 60_000);
      expect((await board(ids.Secretary)).trackers).toEqual([trackers.Secretary]);
      // Reloads replay nothing new; the trackers stay in 'Your Voting Status'.
      await page.reload();
      await page.waitFor(card("Secretary", { role: "button", name: "Vote Cast" }), 30_000);
      for (const title of ["President", "Secretary"]) {
        await page.waitFor({ testId: "status-tracker", text: trackers[title] });
      }
      // The delivered ballots left the outbox: the device holds nothing to send again.
      const outbox = await page.until("the device store", async () => (await page.evaluate(readDeviceStore, 5_000))?.rows.outbox);
      expect(outbox).toEqual([]);
      expect((await board(ids.Secretary)).trackers).toEqual([trackers.Secretary]);
      expect((await board(ids.President)).trackers).toEqual([trackers.President]);
    });

    test("the Ballot Box page finds the tracker, and belenios-tool verifies the archive", async () => {
      await page.goto("/ballot-box");
      const box: Query = { testId: `ballot-box-${ids.Secretary}` };
      await page.waitFor({ within: box, testId: "fingerprint", text: (await board(ids.Secretary)).fingerprint }, 20_000);
      await page.type({ within: box, label: "Find your tracker" }, trackers.Secretary);
      await page.waitFor({ within: box, text: "Found: this ballot is in the ballot box" });
      await page.type({ within: box, label: "Find your tracker" }, trackers.President);
      await page.waitFor({ within: box, text: "Not found: no ballot in this ballot box has this tracker" });
      await page.waitFor({ within: box, testId: "verify-commands", text: "belenios-tool election verify --dir ." });

      await expectArchivesVerify(server.baseURL, ids, scratch);
    });
  });
}

describe("verifiable positions, the voter (chromium)", () => {
  let server: RunningServer;
  let wifi: NetworkSwitch;
  let api: ReturnType<typeof serverApi>;
  let voter: Browser;
  let ids: Record<string, string> = {};
  const credential = generateCredential();
  const trackers: Record<string, string> = {};
  const scratch = mkdtempSync(join(tmpdir(), "verifiable-e2e-"));
  const form = (page: Page, title: string) => page.getByRole("form", { name: title });
  const board = async (positionId: string) => (await api.call<{ fingerprint: string; trackers: string[] }>(`/positions/${positionId}/board`)).body;

  beforeAll(async () => {
    server = await startServer();
    api = serverApi(server.baseURL);
    const admin = await api.login(ADMIN.matric, { password: ADMIN.password });
    await api.createVoter(admin, VOTER);
    ids = await setUpElection(api, admin, credential);
    wifi = await startNetworkSwitch(server.baseURL);
    voter = await openBrowser(wifi.url, PHONE);
  });

  afterAll(async () => {
    await voter?.close();
    await wifi?.close();
    await server?.stop();
    rmSync(scratch, { recursive: true, force: true });
  });

  test("the credential is checked, entered once, and a vote cast online shows the server's tracker", async () => {
    const { page } = voter;
    await signIn(page, VOTER.matric, VOTER.dob, "dob");
    await page.goto("/vote");
    const president = form(page, "President");
    await president.getByRole("radio", { name: "Amaka Nwosu" }).check({ force: true });
    await president.getByLabel("Credential").fill(credential.slice(0, -1) + (credential.endsWith("2") ? "3" : "2"));
    await president.getByRole("button", { name: "Cast Vote" }).click();
    await president.getByText("This credential is not valid").waitFor();
    expect((await board(ids.President)).trackers).toEqual([]);

    await president.getByLabel("Credential").fill(credential.replace(/-/g, ""));
    await president.getByRole("button", { name: "Cast Vote" }).click();
    await president.getByRole("button", { name: "Vote Cast" }).waitFor({ timeout: 30_000 });
    trackers.President = (await president.getByTestId("tracker").locator("code").textContent())!;
    expect((await board(ids.President)).trackers).toEqual([trackers.President]);
    await form(page, "Secretary").getByTestId("credential-saved").waitFor();
    expect(await form(page, "Secretary").getByLabel("Credential").count()).toBe(0);
  });

  test("a vote cast offline is encrypted on the device, queued with its tracker, and delivered exactly once", async () => {
    const { page, context } = voter;
    await waitForController(page);
    await expect.poll(() => page.evaluate(async () => (await (await caches.open("verifiable-ballot")).keys()).length), { timeout: 30_000 }).toBe(1);

    await setDeviceOffline(context, wifi, true);
    await page.reload();
    const secretary = form(page, "Secretary");
    await secretary.getByTestId("credential-saved").waitFor({ timeout: 30_000 });
    await secretary.getByRole("radio", { name: "Kemi Ade" }).check({ force: true });
    await secretary.getByRole("button", { name: "Cast Vote" }).click();
    await secretary.getByRole("button", { name: "Queued" }).waitFor({ timeout: 30_000 });
    trackers.Secretary = (await secretary.getByTestId("tracker").locator("code").textContent())!;
    expect(trackers.Secretary).toMatch(/^[A-Za-z0-9+/]{43}$/);
    expect((await board(ids.Secretary)).trackers).toEqual([]);

    await setDeviceOffline(context, wifi, false);
    await secretary.getByRole("button", { name: "Vote Cast" }).waitFor({ timeout: 60_000 });
    expect((await board(ids.Secretary)).trackers).toEqual([trackers.Secretary]);
    await page.reload();
    await secretary.getByRole("button", { name: "Vote Cast" }).waitFor({ timeout: 30_000 });
    for (const title of ["President", "Secretary"]) await page.getByTestId("status-tracker").getByText(trackers[title]).waitFor();
    // The delivered ballots left the outbox: the device holds nothing to send again.
    expect((await deviceRows(page)).outbox).toEqual([]);
    expect((await board(ids.Secretary)).trackers).toEqual([trackers.Secretary]);
    expect((await board(ids.President)).trackers).toEqual([trackers.President]);
  });

  test("the Ballot Box page, reached from the tracker, finds it; belenios-tool verifies the archive", async () => {
    const { page } = voter;
    await form(page, "Secretary").getByRole("link", { name: "Open the Ballot Box" }).click();
    await page.waitForURL(/\/ballot-box/);
    const box = page.getByTestId(`ballot-box-${ids.Secretary}`);
    await box.getByTestId("fingerprint").getByText((await board(ids.Secretary)).fingerprint).waitFor();
    // The tracker's link fills the search in.
    await box.getByText("Found: this ballot is in the ballot box").waitFor();
    await box.getByLabel("Find your tracker").fill(trackers.President);
    await box.getByText("Not found: no ballot in this ballot box has this tracker").waitFor();
    await box.getByTestId("verify-commands").getByText("belenios-tool election verify --dir .").waitFor();
    await expectArchivesVerify(server.baseURL, ids, scratch);
  });

  test("logout forgets the credential; the Ballot Box stays open to anyone", async () => {
    const { page } = voter;
    const credentialRows = async () => (await deviceRows(page)).cache?.filter((row) => row.key === "credential").length ?? 0;
    expect(await credentialRows()).toBe(1);
    await page.goto("/vote");
    await page.getByRole("button", { name: "Logout" }).click();
    await page.waitForURL(/\/login$/);
    await expect.poll(credentialRows, { timeout: 10_000 }).toBe(0);
    await page.goto("/ballot-box");
    await page.getByRole("link", { name: "Sign in" }).waitFor();
    await page.getByTestId(`ballot-box-${ids.President}`).getByTestId("fingerprint").getByText((await board(ids.President)).fingerprint).waitFor();
  });
});
