/**
 * A verifiable position's set-up and count as the returning officer and a candidate's agent
 * run them, in Chromium, on its own server (no offline grace): 'Verifiable ballot' on Create
 * Positions; each trustee generates a key in their own browser and keeps the private key file;
 * the Credential Authority page makes the voters' credentials and shows the slips; Lock; ballots
 * are cast through HTTP with the shared library (the voter's screens are tested elsewhere);
 * after the close each trustee decrypts on the Decrypt page with their key file; Who Voted lists
 * the voters (refused before the close); the results are in, and Debian's belenios-tool verifies
 * the final archive.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { electionFingerprint, generateBallot, parseElection, readArchive } from "@evoting/shared/belenios";
import type { PositionResult } from "@evoting/shared";
import { toolVerifies } from "../shared/src/belenios/belenios-tool.test-support";
import { ADMIN } from "./support/accounts";
import { audit, openBrowser, signIn, type Browser } from "./support/browser";
import { startServer, type RunningServer } from "./support/global-setup";
import { serverApi } from "./support/server-api";
import { expectToast, localDateTime } from "./support/steps";

const VOTERS = [
  { name: "Kemi Ajayi", matric: "2023/5570701", dob: "20050201" },
  { name: "Lanre Bello", matric: "2023/5570702", dob: "20050202" },
  { name: "Musa Danjuma", matric: "2023/5570703", dob: "20050203" },
];
const AGENT = { name: "Nkechi Agent", matric: "2019/5570709", password: "agent-e2e-pass-1" };
const HOUR = 3_600_000;

let server: RunningServer;
let api: ReturnType<typeof serverApi>;
let adminToken = "";
let officer: Browser;
let agent: Browser;
let keys: string;

beforeAll(async () => {
  server = await startServer({ VOTE_GRACE_MINUTES: "0" });
  api = serverApi(server.baseURL);
  adminToken = await api.login(ADMIN.matric, { password: ADMIN.password });
  for (const v of VOTERS) {
    await api.createVoter(adminToken, v);
  }
  const observer = await api.post("/admin/users", { name: AGENT.name, matricNumber: AGENT.matric, role: "observer", password: AGENT.password }, adminToken);
  expect(observer.status).toBe(201);
  keys = mkdtempSync(join(tmpdir(), "verifiable-e2e-"));
  [officer, agent] = await Promise.all([openBrowser(server.baseURL), openBrowser(server.baseURL)]);
});

afterAll(async () => {
  await Promise.all([officer?.close(), agent?.close()]);
  await server?.stop();
  if (keys) rmSync(keys, { recursive: true, force: true });
});

/** 'Generate my key' in one trustee's browser: the private key file is saved to `keys`. */
async function generateKey(b: Browser, name: string): Promise<string> {
  const { page } = b;
  await page.goto("/admin/trustees");
  await page.getByLabel("Trustee Name").fill(name);
  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Generate my key" }).click();
  const file = join(keys, (await download).suggestedFilename());
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
  await page.getByRole("listitem", { name: "President" }).getByText(verdict).waitFor({ timeout: 30_000 });
}

test("trustees' keys in two browsers, credentials and slips, lock, ballots, decryption in each trustee's browser, and belenios-tool verifies", async () => {
  const { page } = officer;
  await signIn(page, ADMIN.matric, ADMIN.password, "password");

  // 1. A verifiable position, created on Create Positions.
  await page.goto("/admin/positions");
  await page.getByLabel("Position Title").fill("President");
  await page.getByLabel("Start Time").fill(await localDateTime(page, HOUR));
  await page.getByLabel("End Time").fill(await localDateTime(page, 3 * HOUR));
  const box = page.getByRole("checkbox", { name: "Verifiable ballot" });
  expect(await box.isChecked()).toBe(false);
  await box.check();
  await page.getByRole("button", { name: "Create Position" }).click();
  await expectToast(page, "Position created successfully!");
  const positions = (await api.call<{ _id: string; title: string; belenios?: { uuid: string; state: string } }[]>("/admin/positions", { token: adminToken })).body;
  const president = positions.find((p) => p.title === "President")!;
  expect(president.belenios?.state).toBe("setup");
  const ada = await api.createCandidate(adminToken, "Ada Obi", president._id, [200, 80, 80]);
  const ben = await api.createCandidate(adminToken, "Ben Uzo", president._id, [80, 80, 200]);

  // 2. Two trustees, each in their own browser: the returning officer and a candidate's agent
  // (an observer account).
  const officerKey = await generateKey(officer, "Returning Officer");
  await signIn(agent.page, AGENT.matric, AGENT.password, "password");
  const agentKey = await generateKey(agent, AGENT.name);
  await agent.page.getByText("You are trustee 2. Keep your private key file safe until the count.").waitFor();
  await audit(agent.page, "verifiable-trustees-agent");
  expect(readdirSync(keys).sort()).toEqual(["nkechi-agent.privkey", "returning-officer.privkey"]);
  const trustees = (await api.call<{ id: number; name: string; publicKey: string }[]>("/admin/trustees", { token: adminToken })).body;
  expect(trustees.map((t) => [t.id, t.name])).toEqual([
    [1, "Returning Officer"],
    [2, AGENT.name],
  ]);

  // 3. Credentials made in the officer's browser; the slips show one per voter.
  await page.goto("/admin/credentials");
  await page.getByText("No private credential ever reaches the server.").waitFor();
  await page.getByRole("button", { name: "Generate credentials" }).click();
  await page.getByRole("dialog", { name: "Generate Credentials" }).getByRole("button", { name: "Generate" }).click();
  const slips = page.getByRole("list", { name: "Credential slips" });
  await slips.waitFor({ timeout: 60_000 });
  await expect.poll(() => slips.getByRole("img").count(), { timeout: 20_000 }).toBe(3);
  // Drawn in the page's worker as small PNGs (an SVG image costs the page's main thread a document each).
  const qr = slips.getByRole("img").first();
  expect(await qr.getAttribute("src")).toMatch(/^data:image\/png;base64,/);
  // 25 modules and a margin of 1, 4 px each.
  await expect.poll(() => qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(108);
  const credentialOf = new Map<string, string>();
  for (const v of VOTERS) {
    const slip = slips.getByRole("listitem").filter({ hasText: v.matric });
    credentialOf.set(v.matric, (await slip.getByTestId("slip-credential").textContent())!.trim());
  }
  expect(new Set(credentialOf.values()).size).toBe(3);
  await audit(page, "verifiable-credential-slips");

  // 4. Lock, with its confirm; trustees are frozen from then.
  await page.goto("/admin/trustees");
  await page.getByRole("button", { name: "Lock President" }).click();
  await page.getByRole("dialog", { name: "Lock Position" }).getByRole("button", { name: "Lock" }).click();
  await expectToast(page, "President is locked");
  await page.getByRole("listitem", { name: "President" }).getByText("Open", { exact: true }).waitFor();
  await page.getByText("Frozen", { exact: true }).waitFor();
  await audit(page, "verifiable-trustees-locked");

  // 5. Voting opens now; three ballots through HTTP, built with each slip's credential.
  const opened = await api.call(`/admin/positions/${president._id}`, {
    method: "PATCH",
    token: adminToken,
    body: JSON.stringify({ startTime: new Date(Date.now() - 60_000).toISOString() }),
  });
  expect(opened.status, JSON.stringify(opened.body)).toBe(200);
  const setup = readArchive(new Uint8Array(await (await fetch(`${server.baseURL}/api/positions/${president._id}/archive.bel`)).arrayBuffer()));
  const electionJson = setup.find((m) => m.name.endsWith(".data.json") && m.content.startsWith('{"version":1'))!.content;
  const election = parseElection(electionJson);
  expect(election.question.answers).toEqual(["Ada Obi", "Ben Uzo"]);
  const choices = [0, 1, 0];
  for (const [i, v] of VOTERS.entries()) {
    const token = await api.login(v.matric, { dateOfBirth: Number(v.dob) });
    const ballot = generateBallot(electionJson, election, electionFingerprint(electionJson), credentialOf.get(v.matric)!, { selected: [choices[i]] });
    const cast = await api.call<{ tracker: string }>("/vote", {
      method: "POST",
      token,
      headers: { "Idempotency-Key": crypto.randomUUID() },
      body: JSON.stringify({ positionId: president._id, ballot }),
    });
    expect(cast.status, JSON.stringify(cast.body)).toBe(201);
  }

  // Who voted waits for the close.
  await page.goto(`/admin/who-voted?position=${president._id}`);
  await page.getByText("The list of who voted is shown once voting for this position has closed").waitFor();
  await page.getByText(/^Voting for President closes /).waitFor();

  // 6. The close; then each trustee decrypts in their own browser with their key file.
  expect((await api.post("/admin/election/close", {}, adminToken)).status).toBe(200);
  // The list comes with the close (this server has no offline grace): each voter, never a choice.
  await page.getByRole("button", { name: "Check again" }).click();
  await page.getByText("3 voters voted; 3 ballots on the ballot box.").waitFor();
  await decrypt(agent, agentKey, `2, ${AGENT.name}`, "Accepted: 1 more trustee to decrypt.");
  await audit(agent.page, "verifiable-decrypt-agent");
  await decrypt(officer, officerKey, "1, Returning Officer", "Accepted: every trustee has decrypted, the result is in.");
  await page.getByRole("link", { name: "See the results" }).waitFor();
  await audit(page, "verifiable-decrypt-done");

  // Who voted, from the verifiable position's line on the Trustees page: the three voters, a
  // search, and the CSV for the notice board.
  await page.goto("/admin/trustees");
  await page.getByRole("link", { name: "Who voted for President" }).click();
  await page.getByRole("heading", { name: "Who voted: President" }).waitFor();
  await page.getByText("The ballot box holds one ballot for each voter listed.", { exact: false }).waitFor();
  const listed = page.getByRole("table", { name: /^Who voted for President/ });
  expect(await listed.getByRole("row").count()).toBe(VOTERS.length + 1);
  for (const v of VOTERS) await listed.getByRole("row", { name: new RegExp(`${v.name} ${v.matric.replace("/", "\\/")}`) }).waitFor();
  await audit(page, "verifiable-who-voted");
  await page.getByRole("searchbox", { name: "Search" }).fill(VOTERS[1].matric);
  await expect.poll(() => listed.getByRole("row").count()).toBe(2);
  await listed.getByText(VOTERS[1].name).waitFor();
  const csvDownload = page.waitForEvent("download");
  await page.getByRole("button", { name: "Download CSV" }).click();
  const csvFile = join(keys, (await csvDownload).suggestedFilename());
  await (await csvDownload).saveAs(csvFile);
  expect(readFileSync(csvFile, "utf8").trim().split("\r\n")).toEqual(["matricNumber,name", ...VOTERS.map((v) => `${v.matric},${v.name}`)]);

  // 7. The results: what was cast, verified; and belenios-tool accepts the final archive.
  const results = (await api.call<{ results: PositionResult[] }>("/vote/results", { token: adminToken })).body.results;
  const result = results.find((r) => r.positionId === president._id)!;
  expect(Object.fromEntries(result.breakdown.map((b) => [b.name, b.votes]))).toEqual({ "Ada Obi": 2, "Ben Uzo": 1 });
  expect(result.belenios).toMatchObject({ state: "decrypted", verified: true });
  expect([ada, ben]).toHaveLength(2);
  const final = await fetch(`${server.baseURL}/api/positions/${president._id}/archive.bel`);
  const dir = mkdtempSync(join(tmpdir(), "verifiable-e2e-archive-"));
  try {
    writeFileSync(join(dir, `${president.belenios!.uuid}.bel`), new Uint8Array(await final.arrayBuffer()));
    const verdict = toolVerifies(dir);
    expect(verdict.output).toContain("all checks passed");
    expect(verdict.ok).toBe(true);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
