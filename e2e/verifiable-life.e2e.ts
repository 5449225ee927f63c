/**
 * A verifiable position's whole life in Chromium, every step in the browser of the person who
 * takes it, on its own server (no offline grace): the returning officer loads the roll and a
 * candidate's agent's account, creates the position with 'Verifiable ballot' and its candidates;
 * the officer and the agent each generate a trustee key in their own browser and keep the file;
 * the Credential Authority page makes the credentials and the test reads them from the CSV it
 * gives; Lock, then the start moved to now on Edit Position; two voters vote online on one phone
 * (the first logs out, and the device forgets her credential), a third on another phone with the
 * network cut (queued with its tracker, delivered once when back online) and finds his tracker
 * with the public Ballot Box page's search box; Who Voted refuses until the close, then lists the
 * three voters; 'Close voting now'; each trustee decrypts on the
 * Decrypt page with their key file; the results say 'Verified with Belenios' with what was cast,
 * the printed sheet carries the final fingerprint; and Debian's belenios-tool verifies the archive
 * the agent downloads from the Ballot Box page.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { parseElection, readArchive } from "@evoting/shared/belenios";
import type { PositionResult } from "@evoting/shared";
import { toolVerifies } from "../shared/src/belenios/belenios-tool.test-support";
import { ADMIN } from "./support/accounts";
import { PHONE, audit, openBrowser, signIn, type Browser } from "./support/browser";
import { deviceRows, waitForDeviceCopy } from "./support/device-store";
import { startServer, type RunningServer } from "./support/global-setup";
import { startNetworkSwitch, type NetworkSwitch } from "./support/network-switch";
import { serverApi, setDeviceOffline, waitForController } from "./support/server-api";
import { createCandidate, createUser, expectToast, localDateTime } from "./support/steps";

const VOTERS = [
  { name: "Kemi Ajayi", matric: "2023/5570701", dob: "20050201" },
  { name: "Lanre Bello", matric: "2023/5570702", dob: "20050202" },
  { name: "Musa Danjuma", matric: "2023/5570703", dob: "20050203" },
];
const [KEMI, LANRE, MUSA] = VOTERS;
const AGENT = { name: "Nkechi Agent", matric: "2019/5570709", password: "agent-e2e-pass-1" };
const HOUR = 3_600_000;

let server: RunningServer;
let api: ReturnType<typeof serverApi>;
let adminToken = "";
/** Musa's phone reaches the server through it: his campus Wi-Fi. */
let wifi: NetworkSwitch;
let officer: Browser;
let agent: Browser;
let phone: Browser;
let musaPhone: Browser | undefined;
let files: string;
let positionId = "";
const keyFiles: Record<string, string> = {};
const credentialOf = new Map<string, string>();
const trackers: Record<string, string> = {};

const card = (page: Page, title: string) => page.getByRole("form", { name: title });
const board = async () => (await api.call<{ fingerprint: string; trackers: string[] }>(`/positions/${positionId}/board`)).body;

beforeAll(async () => {
  server = await startServer({ VOTE_GRACE_MINUTES: "0" });
  api = serverApi(server.baseURL);
  adminToken = await api.login(ADMIN.matric, { password: ADMIN.password });
  wifi = await startNetworkSwitch(server.baseURL);
  files = mkdtempSync(join(tmpdir(), "verifiable-life-"));
  [officer, agent] = await Promise.all([openBrowser(server.baseURL), openBrowser(server.baseURL)]);
});

afterAll(async () => {
  await Promise.all([officer?.close(), agent?.close(), phone?.close(), musaPhone?.close()]);
  await wifi?.close();
  await server?.stop();
  if (files) rmSync(files, { recursive: true, force: true });
});

/** 'Generate my key' in one trustee's browser: the private key file is kept in `files`. */
async function generateKey(b: Browser, name: string): Promise<string> {
  const { page } = b;
  await page.goto("/admin/trustees");
  await page.getByLabel("Trustee Name").fill(name);
  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Generate my key" }).click();
  const file = join(files, (await download).suggestedFilename());
  await (await download).saveAs(file);
  await page.getByText(/never sent to the server/).waitFor();
  await page.getByRole("checkbox", { name: "I have saved my private key file" }).check();
  await page.getByRole("button", { name: "Register my key" }).click();
  await expectToast(page, `${name} is trustee`);
  return file;
}

async function decrypt(b: Browser, keyFile: string, trustee: string, verdict: string) {
  const { page } = b;
  await page.goto("/admin/decrypt");
  const input = page.getByLabel("Private Key File");
  await expect.poll(() => input.isEnabled()).toBe(true);
  await input.setInputFiles(keyFile);
  await page.getByText(`This is the key of trustee ${trustee}.`).waitFor();
  await page.getByRole("button", { name: "Decrypt" }).click();
  await page.getByRole("listitem", { name: "President" }).getByText(verdict).waitFor({ timeout: 60_000 });
}

/** A voter on the Vote page: the choice, the credential from the slip, 'Cast Vote'. */
async function castVote(page: Page, candidate: string, credential: string, outcome: "Vote Cast" | "Queued"): Promise<string> {
  const president = card(page, "President");
  await president.getByRole("radio", { name: candidate }).check({ force: true });
  await president.getByLabel("Credential").fill(credential);
  await president.getByRole("button", { name: "Cast Vote" }).click();
  await president.getByRole("button", { name: outcome }).waitFor({ timeout: 60_000 });
  const tracker = (await president.getByTestId("tracker").locator("code").textContent())!.trim();
  expect(tracker).toMatch(/^[A-Za-z0-9+/]{43}$/);
  return tracker;
}

const credentialRows = async (page: Page) => (await deviceRows(page)).cache?.filter((row) => row.key === "credential").length ?? 0;

/** A CSV as the page writes it (shared/src/csv.ts): no cell here needs quotes. */
function readCsv(text: string): Record<string, string>[] {
  const [header, ...lines] = text.trim().split(/\r\n/).map((line) => line.split(","));
  return lines.map((cells) => Object.fromEntries(header.map((h, i) => [h, cells[i]])));
}

describe("a verifiable position's whole life, in the browsers of those who run it", () => {
  test("1. the officer loads the roll and the agent's account, then creates the verifiable position and its candidates", async () => {
    const { page } = officer;
    await signIn(page, ADMIN.matric, ADMIN.password, "password");
    await page.goto("/admin/users");
    for (const v of VOTERS) await createUser(page, v);
    await page.getByLabel("Name", { exact: true }).fill(AGENT.name);
    await page.getByLabel("Matriculation Number").fill(AGENT.matric);
    await page.getByLabel("Role").selectOption({ label: "Observer" });
    await page.getByLabel("Password").fill(AGENT.password);
    await page.getByRole("button", { name: "Create User" }).click();
    await expectToast(page, "User created successfully!");
    await page.getByText(AGENT.name).first().waitFor();

    await page.goto("/admin/positions");
    await page.getByLabel("Position Title").fill("President");
    await page.getByLabel("Start Time").fill(await localDateTime(page, HOUR));
    await page.getByLabel("End Time").fill(await localDateTime(page, 3 * HOUR));
    const box = page.getByRole("checkbox", { name: "Verifiable ballot" });
    expect(await box.isChecked()).toBe(false);
    await box.check();
    await page.getByRole("button", { name: "Create Position" }).click();
    await expectToast(page, "Position created successfully!");

    await page.goto("/admin/candidates");
    await createCandidate(page, "Ada Obi", "President");
    await createCandidate(page, "Ben Uzo", "President");

    const positions = (await api.call<{ _id: string; title: string; belenios?: { state: string } }[]>("/admin/positions", { token: adminToken })).body;
    const president = positions.find((p) => p.title === "President")!;
    expect(president.belenios?.state).toBe("setup");
    positionId = president._id;
  });

  test("2. two trustees generate their keys, each in their own browser, and keep the files", async () => {
    keyFiles.officer = await generateKey(officer, "Returning Officer");
    await signIn(agent.page, AGENT.matric, AGENT.password, "password");
    keyFiles.agent = await generateKey(agent, AGENT.name);
    await agent.page.getByText("You are trustee 2. Keep your private key file safe until the count.").waitFor();
    await audit(agent.page, "verifiable-trustees-agent");
    expect(readdirSync(files).sort()).toEqual(["nkechi-agent.privkey", "returning-officer.privkey"]);
    // Every browser sees the same list, in the order the keys came.
    const { page } = officer;
    await page.reload();
    const list = page.getByRole("list", { name: "Trustees" });
    await expect
      .poll(async () => (await list.getByRole("listitem").allInnerTexts()).map((text) => text.match(/Returning Officer|Nkechi Agent/)?.[0]), { timeout: 15_000 })
      .toEqual(["Returning Officer", AGENT.name]);
  });

  test("3. the Credential Authority page makes one credential per voter; the slips and the CSV carry them", async () => {
    const { page } = officer;
    await page.goto("/admin/credentials");
    await page.getByText("No private credential ever reaches the server.").waitFor();
    await page.getByRole("button", { name: "Generate credentials" }).click();
    await page.getByRole("dialog", { name: "Generate Credentials" }).getByRole("button", { name: "Generate" }).click();
    await page.getByRole("button", { name: "Download CSV" }).waitFor({ timeout: 60_000 });

    const download = page.waitForEvent("download");
    await page.getByRole("button", { name: "Download CSV" }).click();
    const csvFile = join(files, (await download).suggestedFilename());
    await (await download).saveAs(csvFile);
    const rows = readCsv(readFileSync(csvFile, "utf8"));
    expect(rows.map((r) => [r.matricNumber, r.name, r.positions])).toEqual(VOTERS.map((v) => [v.matric, v.name, "President"]));
    for (const r of rows) credentialOf.set(r.matricNumber, r.credential);
    expect(new Set(credentialOf.values()).size).toBe(3);

    // The printable slips show each voter's credential beside their name.
    const slips = page.getByRole("list", { name: "Credential slips" });
    for (const v of VOTERS) {
      await slips.getByRole("listitem").filter({ hasText: v.matric }).getByText(credentialOf.get(v.matric)!, { exact: true }).waitFor();
    }
    // Each slip gets its QR code (what a voter's phone scans).
    await expect.poll(() => slips.getByRole("img").count(), { timeout: 60_000 }).toBe(3);
    // Drawn in the page's worker as small PNGs (an SVG image costs the page's main thread a document each):
    // 25 modules and a margin of 1, 4 px each.
    const qr = slips.getByRole("img").first();
    expect(await qr.getAttribute("src")).toMatch(/^data:image\/png;base64,/);
    await expect.poll(() => qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(108);
    await audit(page, "verifiable-credential-slips");
  });

  test("4. the officer locks the position (trustees freeze), then moves its start to now", async () => {
    const { page } = officer;
    // The slips' page asks before it is left: the sheet is printed, the CSV kept.
    page.once("dialog", (d) => void d.accept());
    await page.goto("/admin/trustees");
    await page.getByRole("button", { name: "Lock President" }).click();
    await page.getByRole("dialog", { name: "Lock Position" }).getByRole("button", { name: "Lock" }).click();
    await expectToast(page, "President is locked");
    await page.getByRole("listitem", { name: "President" }).getByText("Open", { exact: true }).waitFor();
    await page.getByText("Frozen", { exact: true }).waitFor();
    await expect(page.getByRole("button", { name: "Generate my key" }).count()).resolves.toBe(0);
    await audit(page, "verifiable-trustees-locked");

    await page.goto("/admin/manage-positions");
    await page.getByRole("button", { name: "Edit President" }).click();
    const dialog = page.getByRole("dialog", { name: "Edit Position" });
    await dialog.getByLabel("Start Time").fill(await localDateTime(page, 0));
    await dialog.getByRole("button", { name: "Save Changes" }).click();
    await expectToast(page, "Position updated successfully!");
    await dialog.waitFor({ state: "detached" });
  });

  test("5. on one phone Kemi votes online and logs out (the device forgets her credential); Lanre votes on it next", async () => {
    phone = await openBrowser(server.baseURL, PHONE);
    const { page } = phone;
    await signIn(page, KEMI.matric, KEMI.dob, "dob");
    await page.goto("/vote");
    trackers.kemi = await castVote(page, "Ada Obi", credentialOf.get(KEMI.matric)!, "Vote Cast");
    expect((await board()).trackers).toEqual([trackers.kemi]);
    await page.getByTestId("status-tracker").getByText(trackers.kemi).waitFor();
    await expect.poll(() => credentialRows(page), { timeout: 10_000 }).toBe(1);

    await page.getByRole("button", { name: "Logout" }).click();
    await page.waitForURL(/\/login$/);
    await expect.poll(() => credentialRows(page), { timeout: 10_000 }).toBe(0);

    await signIn(page, LANRE.matric, LANRE.dob, "dob");
    await page.goto("/vote");
    // Kemi's credential is not offered to the next voter: the card asks for his.
    await card(page, "President").getByLabel("Credential").waitFor();
    trackers.lanre = await castVote(page, "Ada Obi", credentialOf.get(LANRE.matric)!, "Vote Cast");
    expect((await board()).trackers.sort()).toEqual([trackers.kemi, trackers.lanre].sort());
  });

  test("6. Musa votes on his phone with the network cut: queued with its tracker, delivered once when back online", async () => {
    musaPhone = await openBrowser(wifi.url, PHONE);
    const { page, context } = musaPhone;
    await signIn(page, MUSA.matric, MUSA.dob, "dob");
    await page.goto("/vote");
    await card(page, "President").getByLabel("Credential").waitFor();
    await waitForController(page);
    // The encryption worker is kept by the service worker once the ballot has shown it, and the
    // page keeps its copy of the ballot (with the election's public key).
    await expect.poll(() => page.evaluate(async () => (await (await caches.open("verifiable-ballot")).keys()).length), { timeout: 30_000 }).toBe(1);
    await waitForDeviceCopy(page, ["positions", "myVotes"]);

    await setDeviceOffline(context, wifi, true);
    await page.reload();
    await page.getByTestId("offline-notice").waitFor({ timeout: 30_000 });
    trackers.musa = await castVote(page, "Ben Uzo", credentialOf.get(MUSA.matric)!, "Queued");
    // The device holds the encrypted ballot in its outbox, and the tracker beside the mark.
    const kept = async () => {
      const rows = await deviceRows(page);
      return { outbox: rows.outbox.length, marks: rows.marks.map((m) => [m.state, (m as { tracker?: string }).tracker]) };
    };
    await expect.poll(kept, { timeout: 10_000 }).toEqual({ outbox: 1, marks: [["queued", trackers.musa]] });
    expect((await board()).trackers).toHaveLength(2);

    await setDeviceOffline(context, wifi, false);
    await card(page, "President").getByRole("button", { name: "Vote Cast" }).waitFor({ timeout: 60_000 });
    await expect.poll(async () => (await deviceRows(page)).outbox.length, { timeout: 20_000 }).toBe(0);
    expect((await board()).trackers.filter((t) => t === trackers.musa)).toHaveLength(1);
    // A reload sends nothing again; the tracker stays in 'Your Voting Status'.
    await page.reload();
    await card(page, "President").getByRole("button", { name: "Vote Cast" }).waitFor({ timeout: 30_000 });
    await page.getByTestId("status-tracker").getByText(trackers.musa).waitFor();
    expect((await board()).trackers.sort()).toEqual([trackers.kemi, trackers.lanre, trackers.musa].sort());
  });

  test("7. Musa finds his tracker on the public Ballot Box page with its search box", async () => {
    const { page } = musaPhone!;
    await card(page, "President").getByRole("link", { name: "Open the Ballot Box" }).click();
    await page.waitForURL(/\/ballot-box/);
    const box = page.getByTestId(`ballot-box-${positionId}`);
    await box.getByTestId("fingerprint").getByText((await board()).fingerprint).waitFor();
    // The tracker's link fills the search box in; typed by hand, it is found too.
    await box.getByText("Found: this ballot is in the ballot box").waitFor();
    const search = box.getByLabel("Find your tracker");
    await search.fill("");
    await box.getByText("Found: this ballot is in the ballot box").waitFor({ state: "detached" });
    await search.fill(trackers.musa);
    await box.getByText("Found: this ballot is in the ballot box").waitFor();
    await search.fill(trackers.musa.replace(/^./, (c) => (c === "A" ? "B" : "A")));
    await box.getByText("Not found: no ballot in this ballot box has this tracker").waitFor();
    await audit(page, "verifiable-life-ballot-box");
  });

  test("8. Who Voted waits for the close; 'Close voting now'; the list of who voted; each trustee decrypts in their own browser with their key file", async () => {
    const { page } = officer;
    await page.goto(`/admin/who-voted?position=${positionId}`);
    await page.getByText("The list of who voted is shown once voting for this position has closed").waitFor();
    await page.getByText(/^Voting for President closes /).waitFor();

    await page.goto("/admin");
    const election = page.getByRole("region", { name: "Election", exact: true });
    await election.getByRole("button", { name: "Close voting now" }).click();
    await page.getByRole("dialog", { name: "Close voting now?" }).getByRole("button", { name: "Close voting now" }).click();
    await expectToast(page, "Voting closed at");

    // Who voted, from the position's line on the Trustees page (this server has no offline
    // grace): each voter, never a choice; a search; the CSV for the notice board.
    await page.goto("/admin/trustees");
    await page.getByRole("link", { name: "Who voted for President" }).click();
    await page.getByRole("heading", { name: "Who voted: President" }).waitFor();
    await page.getByText("3 voters voted; 3 ballots on the ballot box.").waitFor();
    const listed = page.getByRole("table", { name: /^Who voted for President/ });
    expect(await listed.getByRole("row").count()).toBe(VOTERS.length + 1);
    for (const v of VOTERS) await listed.getByRole("row", { name: new RegExp(`${v.name} ${v.matric.replace("/", "\\/")}`) }).waitFor();
    await audit(page, "verifiable-who-voted");
    await page.getByRole("searchbox", { name: "Search" }).fill(LANRE.matric);
    await expect.poll(() => listed.getByRole("row").count()).toBe(2);
    await listed.getByText(LANRE.name).waitFor();
    const csvDownload = page.waitForEvent("download");
    await page.getByRole("button", { name: "Download CSV" }).click();
    const csvFile = join(files, (await csvDownload).suggestedFilename());
    await (await csvDownload).saveAs(csvFile);
    expect(readFileSync(csvFile, "utf8").trim().split("\r\n").sort()).toEqual(["matricNumber,name", ...VOTERS.map((v) => `${v.matric},${v.name}`)].sort());

    await decrypt(agent, keyFiles.agent, `2, ${AGENT.name}`, "Accepted: 1 more trustee to decrypt.");
    await audit(agent.page, "verifiable-decrypt-agent");
    await decrypt(officer, keyFiles.officer, "1, Returning Officer", "Accepted: every trustee has decrypted, the result is in.");
    await audit(page, "verifiable-decrypt-done");
  });

  test("9. the results say 'Verified with Belenios' with what was cast; the sheet carries the final fingerprint", async () => {
    const { page } = officer;
    await page.getByRole("link", { name: "See the results" }).click();
    await page.waitForURL(/\/results/);
    // The Overview's leader card is marked, Ada leading with two of three votes.
    const leader = page.getByRole("listitem").filter({ hasText: "Verified with Belenios" });
    await leader.getByText("Ada Obi").waitFor();
    await leader.getByText("2 votes · 66.7%").waitFor();
    await page.getByRole("tab", { name: "Detailed" }).click();
    const president = page.getByRole("region", { name: "President" });
    await president.getByText("Verified with Belenios").waitFor();
    await expect.poll(() => president.getByRole("meter", { name: "Ada Obi share of votes" }).getAttribute("aria-valuetext"), { timeout: 15_000 }).toBe("66.7%");
    await expect(president.getByRole("meter", { name: "Ben Uzo share of votes" }).getAttribute("aria-valuetext")).resolves.toBe("33.3%");
    await audit(page, "verifiable-life-results");

    const results = (await api.call<{ results: PositionResult[] }>("/vote/results", { token: adminToken })).body.results;
    const result = results.find((r) => r.positionId === positionId)!;
    expect(Object.fromEntries(result.breakdown.map((b) => [b.name, b.votes]))).toEqual({ "Ada Obi": 2, "Ben Uzo": 1 });
    expect(result.belenios).toMatchObject({ state: "decrypted", verified: true });
    const { fingerprint } = await board();
    expect(result.belenios!.fingerprint).toBe(fingerprint);

    await page.goto("/admin/results/print");
    const sheet = page.getByRole("region", { name: "President" });
    await sheet.getByText("Verified with Belenios").waitFor();
    await sheet.getByText(fingerprint).waitFor();
    await expect(sheet.getByRole("row", { name: /Ada Obi/ }).getByRole("cell").nth(1).textContent()).resolves.toBe("2");
    await expect(sheet.getByRole("row", { name: /Ben Uzo/ }).getByRole("cell").nth(1).textContent()).resolves.toBe("1");
  });

  test("10. the agent downloads the final archive from the Ballot Box page, and belenios-tool verifies it", async () => {
    const { page } = agent;
    await page.goto("/ballot-box");
    const box = page.getByTestId(`ballot-box-${positionId}`);
    await box.getByTestId("fingerprint").getByText((await board()).fingerprint).waitFor();
    const download = page.waitForEvent("download");
    await box.getByRole("link", { name: /^Download the archive/ }).click();
    const dir = mkdtempSync(join(files, "archive-"));
    const file = join(dir, (await download).suggestedFilename());
    await (await download).saveAs(file);
    expect(file).toMatch(/\.bel$/);

    const verdict = toolVerifies(dir);
    expect(verdict.output).toContain("all checks passed");
    expect(verdict.ok).toBe(true);
    // The answers are the candidates in the admin list's order; the board's ballots are the voters' trackers.
    const archive = readArchive(new Uint8Array(readFileSync(file)));
    const election = parseElection(archive.find((m) => m.name.endsWith(".data.json") && m.content.startsWith('{"version":1'))!.content);
    expect(election.question.answers).toEqual(["Ada Obi", "Ben Uzo"]);
    expect((await board()).trackers.sort()).toEqual(Object.values(trackers).sort());
  });
});
