/**
 * The voter's journey in every engine a student's phone may run: Chromium, Firefox (WebDriver
 * BiDi) and WebKit (WebKitWebDriver + MiniBrowser, the engine of every iPhone browser), at a
 * phone-sized viewport. Each engine gets its own server (fresh database) so ballots can be
 * counted exactly, and reaches it through a relay the test cuts like a campus Wi-Fi drop:
 * Firefox and WebKit keep `navigator.onLine` true when only the server goes away, so every
 * delivery here happens without an 'online' event (Chromium's 'online' path is in offline.e2e).
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { ADMIN } from "./support/accounts";
import { ENGINES, IPHONE_SAFARI, openEngine, type EnginePage, type Query } from "./engines";
import { startServer, type RunningServer } from "./support/global-setup";
import { startNetworkSwitch, type NetworkSwitch } from "./support/network-switch";
import { serverApi } from "./support/server-api";
import { readDeviceStore } from "./support/device-store";

const VOTER = { name: "Ada Okafor", matric: "2021/5570401", dob: "20030505" };
const OTHER = { name: "Chidi Eze", matric: "2021/5570402", dob: "20040606" };
const OFFICER = { name: "Femi Officer", matric: "2019/5570477", password: "officer-e2e-pass" };
const BOOTH = [
  { name: "Ngozi Umeh", matric: "2021/5570403", dob: "20020303" },
  { name: "Yusuf Bello", matric: "2021/5570404", dob: "20010101" },
];

const card = (title: string, inner: Query): Query => ({ ...inner, within: { role: "form", name: title } });

type Tallies = Record<string, number>;

for (const engine of ENGINES) {
  describe(engine, () => {
    let server: RunningServer;
    let wifi: NetworkSwitch;
    let api: ReturnType<typeof serverApi>;
    let adminToken = "";
    let page: EnginePage;
    const ids: Record<string, string> = {};

    const tallies = async (): Promise<Tallies> => {
      const { body } = await api.call<{ results: { positionId: string; totalVotes: number }[] }>("/vote/results", { token: adminToken });
      return Object.fromEntries(body.results.map((r) => [r.positionId, r.totalVotes]));
    };
    const photosCached = () => page.evaluate(async () => (await (await caches.open("candidate-photos")).keys()).length);
    const controlled = () => page.evaluate(() => navigator.serviceWorker?.controller?.state === "activated");

    async function signIn(matric: string, secret: string, label: "Date of Birth" | "Password") {
      await page.goto("/login");
      await page.type({ label: "Matriculation Number" }, matric);
      await page.type({ label }, secret);
      await page.click({ role: "button", name: "Login" });
      await page.until("signed in", async () => (await page.path()) !== "/login");
    }

    /** Opens the ballot by URL once the sign-in has settled (its own navigation may still run). */
    async function openBallot() {
      await page.until("the home page after sign-in", async () => (await page.path()) === "/", 20_000);
      await page.until("the ballot", async () => {
        if ((await page.path()) !== "/vote") await page.goto("/vote");
        return page.find(card("President", { role: "radio", name: "Amaka Nwosu" }));
      }, 30_000);
    }

    async function voteAtStation(voter: { name: string; matric: string }, picks: Record<string, string>) {
      await page.type({ label: "Matric number or name" }, voter.matric);
      await page.click({ role: "button", name: `Start ballot for ${voter.name}` });
      for (const [position, candidate] of Object.entries(picks)) await page.click(card(position, { role: "radio", name: candidate }));
      await page.click({ role: "button", name: "Confirm ballot" });
      await page.click({ role: "button", name: "Submit ballot" });
      // The voter hands the device back; the officer takes it with their password.
      const handBack = { role: "form", name: "Take the device back" } as const;
      await page.type({ label: "Officer password", within: handBack }, OFFICER.password);
      await page.click({ role: "button", name: "Take the device back", within: handBack });
      await page.waitFor({ testId: "station-notice", text: `Ballot taken for ${voter.name}` });
    }

    beforeAll(async () => {
      server = await startServer();
      api = serverApi(server.baseURL);
      adminToken = await api.login(ADMIN.matric, { password: ADMIN.password });
      // This flow reads each vote in the tallies as soon as it is applied.
      await api.setBallotBatch(adminToken, 1);
      for (const v of [VOTER, OTHER, ...BOOTH]) {
        await api.createVoter(adminToken, v);
      }
      const officer = { name: OFFICER.name, matricNumber: OFFICER.matric, role: "officer", password: OFFICER.password };
      expect((await api.post("/admin/users", officer, adminToken)).status).toBe(201);
      ids.President = await api.createPosition(adminToken, "President");
      ids.Secretary = await api.createPosition(adminToken, "Secretary");
      ids.amaka = await api.createCandidate(adminToken, "Amaka Nwosu", ids.President, [79, 70, 229]);
      ids.tunde = await api.createCandidate(adminToken, "Tunde Bakare", ids.President, [217, 119, 6]);
      ids.kemi = await api.createCandidate(adminToken, "Kemi Ade", ids.Secretary, [22, 163, 74]);
      ids.obi = await api.createCandidate(adminToken, "Obi Nnamdi", ids.Secretary, [190, 24, 93]);
      wifi = await startNetworkSwitch(server.baseURL);
      page = await openEngine(engine, wifi.url);
    });

    // A failed test must not leave the next one without a network.
    afterEach(() => wifi?.restore());

    afterAll(async () => {
      await page?.close();
      await wifi?.close();
      await server?.stop();
    });

    test("sign in by date of birth, see the ballot, vote, see the vote counted with its receipt", async () => {
      await page.goto("/login");
      await page.waitFor({ label: "Matriculation Number" });
      // Chromium prompts installation itself; a desktop Firefox or WebKit cannot add to a home screen.
      expect(await page.find({ testId: "install-hint" })).toBe(false);
      await signIn(VOTER.matric, VOTER.dob, "Date of Birth");
      await openBallot();
      await page.waitFor(card("Secretary", { role: "radio", name: "Obi Nnamdi" }));
      await page.click(card("President", { role: "radio", name: "Amaka Nwosu" }));
      await page.click(card("President", { role: "button", name: "Cast Vote" }));
      await page.waitFor(card("President", { role: "button", name: "Vote Cast" }));
      await page.waitFor(card("President", { testId: "receipt", text: { re: "^Your receipt: \\S+" } }));
      await expect.poll(tallies, { timeout: 10_000 }).toEqual({ [ids.President]: 1, [ids.Secretary]: 0 });
    });

    test("after one online visit the app opens offline, with the ballot and photos from the device", async () => {
      await page.until("service worker in control", controlled, 30_000).catch(async () => {
        // A first install under load can miss; the next visit installs it.
        await page.reload();
        await page.until("service worker in control", controlled, 30_000);
      });
      await page.until("four photos cached", async () => (await photosCached()) === 4, 20_000);

      wifi.cut();
      await page.reload();
      await page.waitFor(card("Secretary", { role: "radio", name: "Kemi Ade" }), 30_000);
      await page.waitFor(card("President", { role: "button", name: "Vote Cast" }));
      const photos = () =>
        page.evaluate(() => {
          const imgs = [...document.querySelectorAll("form img")] as HTMLImageElement[];
          return imgs.length === 4 && imgs.every((img) => img.complete && img.naturalWidth > 0);
        });
      await page.until("every photo decoded from the device", photos);
    });

    test("a vote cast offline is queued, kept across a reload, and delivered exactly once", async () => {
      wifi.cut(); // still offline from the page opened offline above
      await page.click(card("Secretary", { role: "radio", name: "Kemi Ade" }));
      await page.click(card("Secretary", { role: "button", name: "Cast Vote" }));
      await page.waitFor(card("Secretary", { role: "button", name: "Queued" }), 20_000);
      await page.waitFor(card("Secretary", { text: "Saved on this device, will be sent when you are back online" }));
      // Whether the engine promises to keep the vote differs; the voter hears which, here.
      const persisted = await page.evaluate(async () => (await navigator.storage?.persisted?.()) ?? false);
      if (persisted) expect(await page.find({ testId: "queued-at-risk" })).toBe(false);
      else await page.waitFor({ testId: "queued-at-risk", text: "This browser has not promised to keep your queued vote." });
      // Leaving with a vote waiting asks first.
      const leaving = () =>
        page.evaluate(() => {
          const event = new Event("beforeunload", { cancelable: true });
          window.dispatchEvent(event);
          return event.defaultPrevented;
        });
      expect(await leaving()).toBe(true);

      await page.reload();
      await page.waitFor(card("Secretary", { role: "button", name: "Queued" }), 30_000);
      expect(await tallies()).toEqual({ [ids.President]: 1, [ids.Secretary]: 0 });

      // The server comes back; the browser is told nothing ('online' never fires).
      wifi.restore();
      await page.waitFor(card("Secretary", { role: "button", name: "Vote Cast" }), 60_000);
      await page.waitFor(card("Secretary", { testId: "receipt" }));
      await expect.poll(tallies, { timeout: 10_000 }).toEqual({ [ids.President]: 1, [ids.Secretary]: 1 });
      await page.waitForGone({ testId: "queued-at-risk" });
      expect(await leaving()).toBe(false);
      // Replays (a reload, a focus) change nothing: the delivered vote left the outbox, so the
      // device holds nothing to send again.
      await page.reload();
      await page.waitFor(card("Secretary", { role: "button", name: "Vote Cast" }));
      const outbox = await page.until("the device store", async () => (await page.evaluate(readDeviceStore, 5_000))?.rows.outbox);
      expect(outbox).toEqual([]);
      expect(await tallies()).toEqual({ [ids.President]: 1, [ids.Secretary]: 1 });
    });

    test("live results update from the stream", async () => {
      await page.goto("/results?tab=detailed");
      await page.until("the results stream is live", () => page.evaluate(() => document.querySelector("[data-stream=live]") !== null), 20_000);
      await page.waitFor({ testId: "tile-Votes Cast", text: "1" }, 20_000);
      const other = await api.login(OTHER.matric, { dateOfBirth: Number(OTHER.dob) });
      expect((await api.post("/vote", { positionId: ids.President, candidateId: ids.tunde }, other)).status).toBe(201);
      await page.waitFor({ testId: "tile-Votes Cast", text: "2" }, 20_000);
    });

    test("the chat posts and receives", async () => {
      const panel: Query = { role: "dialog", name: "Election chat" };
      await page.clickFor({ role: "button", name: { re: "^Chat" } }, panel, 20_000);
      await page.waitFor({ within: panel, text: "Live" }, 20_000);
      const mine = `Hello from ${engine}`;
      await page.type({ within: panel, label: "Message" }, mine);
      await page.click({ within: panel, role: "button", name: "Send" });
      const read = async () => {
        const { body } = await api.call<{ messages?: { text: string }[] } | { text: string }[]>("/chat/messages", { token: adminToken });
        const list = Array.isArray(body) ? body : (body.messages ?? []);
        return list.some((m) => m.text === mine);
      };
      await expect.poll(read, { timeout: 10_000 }).toBe(true);
      const reply = `Reply for the ${engine} voter`;
      expect((await api.post("/chat/messages", { text: reply }, adminToken)).status).toBeLessThan(300);
      await page.waitFor({ within: panel, testId: "chat-message", text: reply }, 20_000);
      await page.click({ within: panel, role: "button", name: { re: "^Close" } }).catch(() => page.reload());
    });

    test("logout on a shared device leaves nothing of the voter in storage", async () => {
      await page.goto("/vote");
      await page.click({ role: "button", name: "Logout" });
      const warning: Query = { role: "alertdialog" };
      // Nothing is queued, so 'Logout' goes straight to the sign-in page.
      await page.waitForPath("/login");
      expect(await page.find(warning)).toBe(false);
      // What is left: how many rows, and the session's keys; null when the store did not answer.
      const left = async () => {
        const store = await page.evaluate(readDeviceStore, 5_000);
        return store && { rows: Object.values(store.rows).reduce((n, rows) => n + rows.length, 0), session: store.session };
      };
      // A store that does not answer is a failure too: WebKit held it for every later page when
      // a page went into its back/forward cache mid-transaction (pwa/src/offline/device-db.ts).
      const nothingLeft = async () => {
        const found = await left();
        if (found === null) throw new Error("the device store did not answer within 5 s");
        if (found.rows > 0) throw new Error(`${found.rows} rows of the voter left`);
        return found;
      };
      expect(await page.until("no voter rows left", nothingLeft, 30_000)).toEqual({ rows: 0, session: [] });
    });

    test("the polling station's offline path: open, take two ballots offline, deliver", async () => {
      const station = await api.post<{ _id: string }>("/admin/stations", { name: "Library Hall 1" }, adminToken);
      expect(station.status).toBe(201);
      const assigned = await api.post(`/admin/stations/${station.body._id}/officers`, { matricNumber: OFFICER.matric }, adminToken);
      expect(assigned.status).toBeLessThan(300);

      await signIn(OFFICER.matric, OFFICER.password, "Password");
      await page.waitForPath("/station");
      await page.click({ role: "button", name: "Open Library Hall 1" });
      const opening = { role: "form", name: "Open Library Hall 1" } as const;
      await page.type({ label: "Officer password", within: opening }, OFFICER.password);
      await page.click({ role: "button", name: "Open station", within: opening });
      await page.waitFor({ testId: "station-readiness", text: "Ready for offline use" }, 30_000);

      wifi.cut();
      await voteAtStation(BOOTH[0]!, { President: "Amaka Nwosu", Secretary: "Kemi Ade" });
      await voteAtStation(BOOTH[1]!, { President: "Tunde Bakare", Secretary: "Obi Nnamdi" });
      await page.waitFor({ testId: "station-queue", text: "2 ballots waiting to be delivered." });
      wifi.restore();
      await page.waitFor({ testId: "station-queue", text: "Every ballot delivered." }, 30_000);
      await expect.poll(tallies, { timeout: 10_000 }).toEqual({ [ids.President]: 4, [ids.Secretary]: 3 });
    });
  });
}


describe("webkit as an iPhone's Safari", () => {
  let server: RunningServer;
  let page: EnginePage;

  beforeAll(async () => {
    server = await startServer();
    page = await openEngine("webkit", server.baseURL, { iPhone: true });
  });
  afterAll(async () => {
    await page?.close();
    await server?.stop();
  });

  test("the sign-in page shows how to add the app to the home screen, once; iOS finds its icon and full-screen settings", async () => {
    expect(await page.evaluate(() => navigator.userAgent)).toBe(IPHONE_SAFARI);
    await page.goto("/login");
    const hint: Query = { testId: "install-hint" };
    await page.waitFor({ ...hint, text: "Tap the Share button in Safari." });
    await page.waitFor({ ...hint, text: "Choose 'Add to Home Screen', then 'Add'." });
    await page.waitFor({ ...hint, text: "sign in there: the installed app does not share this browser's storage." });
    // In the page's flow under the sign-in form, never over it.
    const placement = await page.evaluate(() => {
      const box = document.querySelector("[data-testid=install-hint]")!.getBoundingClientRect();
      const form = document.querySelector("form")!.getBoundingClientRect();
      return { below: box.top >= form.bottom, position: getComputedStyle(document.querySelector("[data-testid=install-hint]")!).position };
    });
    expect(placement).toEqual({ below: true, position: "static" });

    await page.click({ within: hint, role: "button", name: "Dismiss" });
    await page.waitForGone(hint);
    await page.reload();
    await page.waitFor({ label: "Matriculation Number" });
    expect(await page.find(hint)).toBe(false);

    const head = await page.evaluate(async () => {
      const meta = (name: string) => document.querySelector(`meta[name="${name}"]`)?.getAttribute("content") ?? null;
      const icon = document.querySelector("link[rel=apple-touch-icon]")?.getAttribute("href") ?? "";
      const response = await fetch(icon);
      const bitmap = await createImageBitmap(await response.blob());
      const manifest = await (await fetch(document.querySelector("link[rel=manifest]")!.getAttribute("href")!)).json();
      return {
        capable: meta("apple-mobile-web-app-capable"),
        statusBar: meta("apple-mobile-web-app-status-bar-style"),
        title: meta("apple-mobile-web-app-title"),
        icon: [response.status, response.headers.get("content-type"), bitmap.width, bitmap.height],
        display: manifest.display,
      };
    });
    expect(head).toEqual({ capable: "yes", statusBar: "default", title: "CSC E-Voting", icon: [200, "image/png", 180, 180], display: "standalone" });
  });
});
