/**
 * An election's whole life in Chromium, as one continuous run on its own server (fresh
 * database, no offline grace, so the close is the end itself):
 *   nominations: the admin opens the window in Election Settings; a voter applies from 'Apply
 *   to stand' with a photo, a manifesto, a proposer and a seconder, who each confirm from their
 *   own sign-in; the committee approves that application and rejects another with a reason the
 *   applicant reads;
 *   the ballot and polling: the approved applicant is on the ballot with their photo; a voter
 *   votes in both positions, after which the applicant can no longer withdraw;
 *   declaration: not offered before the close, then declared from the Admin Panel;
 *   the archive: the voter finds the results and their receipt in Past Elections, and prints
 *   the archived results sheet; a polling officer's own sign-in opens it from the station page;
 *   the next election: a by-election copying only the position being filled, the roll kept; the voter's open chat drops the old election's messages without a reload, and the
 *   voter votes again.
 * Ballots wait in batches of 10 (the default), so the first election's votes reach the tallies
 * only when the declaration applies them. Nominations close no later than voting starts, so the
 * election starts in two hours while they run; the wait for the start and the close is cut
 * short through the API rather than waited out.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ADMIN } from "./support/accounts";
import { audit, openBrowser, signIn, type Browser } from "./support/browser";
import { startServer, type RunningServer } from "./support/global-setup";
import { serverApi } from "./support/server-api";
import { testPhoto } from "./support/png";
import { chatPanel, expectToast, localDateTime, logout, openChat, say } from "./support/steps";

const APPLICANT = { name: "Amaka Nwosu", matric: "2022/5570401", dob: "20040301" };
/** The proposer is also the voter who votes in both elections. */
const PROPOSER = { name: "Bayo Adeyemi", matric: "2022/5570402", dob: "20040302" };
const SECONDER = { name: "Chioma Eze", matric: "2022/5570403", dob: "20040303" };
const OTHER = { name: "Dapo Lawal", matric: "2022/5570404", dob: "20040304" };
const OFFICER = { name: "Femi Officer", matric: "2019/5570405", password: "officer-e2e-pass" };
const HOUR = 3_600_000;
const CLASS_REP = "Class Representative";
const WELFARE = "Welfare Director";

let server: RunningServer;
let api: ReturnType<typeof serverApi>;
let adminToken = "";
let admin: Browser;
let applicant: Browser;
let voter: Browser;
let classRepId = "";
let welfareId = "";

beforeAll(async () => {
  server = await startServer({ VOTE_GRACE_MINUTES: "0" });
  api = serverApi(server.baseURL);
  adminToken = await api.login(ADMIN.matric, { password: ADMIN.password });
  const { body: settings } = await api.call<Record<string, unknown>>("/election", { token: adminToken });
  const window = { startTime: new Date(Date.now() + 2 * HOUR).toISOString(), endTime: new Date(Date.now() + 3 * HOUR).toISOString() };
  expect((await api.call("/admin/election", { method: "PUT", token: adminToken, body: JSON.stringify({ ...settings, title: "SUG Elections 2026", ...window }) })).status).toBe(200);
  classRepId = await api.createPosition(adminToken, CLASS_REP);
  welfareId = await api.createPosition(adminToken, WELFARE);
  await api.createCandidate(adminToken, "Amina Yusuf", welfareId, [200, 80, 80]);
  await api.createCandidate(adminToken, "Chidi Okafor", welfareId, [80, 80, 200]);
  for (const v of [APPLICANT, PROPOSER, SECONDER, OTHER]) {
    await api.createVoter(adminToken, v);
  }
  const officer = await api.post("/admin/users", { name: OFFICER.name, matricNumber: OFFICER.matric, role: "officer", password: OFFICER.password }, adminToken);
  expect(officer.status).toBe(201);
  [admin, applicant, voter] = await Promise.all([openBrowser(server.baseURL), openBrowser(server.baseURL), openBrowser(server.baseURL)]);
});

afterAll(async () => {
  await Promise.all([admin?.close(), applicant?.close(), voter?.close()]);
  await server?.stop();
});

async function castVote(page: Browser["page"], position: string, candidate: string) {
  await page.goto("/vote");
  const card = page.getByRole("form", { name: position });
  await card.getByRole("radio", { name: candidate }).check();
  await card.getByRole("button", { name: "Cast Vote" }).click();
  await card.getByText(/Your vote has been recorded/).waitFor();
}

async function openNominations() {
  const { page } = admin;
  await signIn(page, ADMIN.matric, ADMIN.password, "password");
  await page.goto("/admin/election");
  await expect.poll(() => page.getByLabel("Election Title").inputValue()).toBe("SUG Elections 2026");
  await page.getByLabel("Nominations Open").fill(await localDateTime(page, -HOUR));
  await page.getByLabel("Nominations Close").fill(await localDateTime(page, HOUR));
  await page.getByRole("button", { name: "Save Settings" }).click();
  await expectToast(page, "Election settings saved");
  const { body } = await api.call<{ nominationsStart: string; nominationsEnd: string }>("/election", { token: adminToken });
  expect(Date.parse(body.nominationsStart)).toBeLessThan(Date.now());
  expect(Date.parse(body.nominationsEnd)).toBeGreaterThan(Date.now());
}

async function applyWithSupporters() {
  const { page } = applicant;
  await signIn(page, APPLICANT.matric, APPLICANT.dob, "dob");
  await page.getByRole("link", { name: "Apply to stand" }).click();
  await page.getByRole("heading", { name: "Apply to stand" }).waitFor();
  const select = page.getByLabel("Position", { exact: true });
  await select.locator("option", { hasText: CLASS_REP }).waitFor({ state: "attached" });
  await select.selectOption({ label: CLASS_REP });
  await page.getByLabel("Your Photo").setInputFiles({ name: "me.png", mimeType: "image/png", buffer: testPhoto([200, 120, 60]) });
  await page.getByRole("img", { name: "Selected photo preview" }).waitFor();
  await page.getByLabel("Manifesto").fill("A study room open every evening.");
  await page.getByLabel("Proposer (matric number)").fill(PROPOSER.matric);
  await page.getByLabel("Seconder (matric number)").fill(SECONDER.matric);
  await audit(page, "nominations-apply");
  await page.getByRole("button", { name: "Submit Application" }).click();
  await expectToast(page, "Application submitted!");
  await page.getByText("Awaiting proposer and seconder").waitFor();
}

async function supportersConfirm() {
  const { page } = voter;
  for (const [who, waiting] of [
    [PROPOSER, "Awaiting seconder"],
    [SECONDER, "Submitted"],
  ] as const) {
    await signIn(page, who.matric, who.dob, "dob");
    const prompt = page.getByRole("region", { name: "Confirm nomination" });
    await prompt.getByText(`${APPLICANT.name} (${APPLICANT.matric}) named you as`).waitFor();
    if (who === PROPOSER) await audit(page, "nominations-confirm-prompt");
    await prompt.getByRole("button", { name: "Confirm" }).click();
    await expectToast(page, "Nomination confirmed");
    await prompt.waitFor({ state: "detached" });
    await logout(page);
    await applicant.page.goto("/nominations");
    await applicant.page.getByText(waiting, { exact: true }).waitFor();
  }
}

async function screen() {
  // A second application, without supporters: straight to screening.
  const otherToken = await api.login(OTHER.matric, { dateOfBirth: Number(OTHER.dob) });
  const form = new FormData();
  form.append("positionId", classRepId);
  form.append("manifesto", "Free printing.");
  form.append("photo", new Blob([new Uint8Array(testPhoto([60, 60, 200]))], { type: "image/png" }), "me.png");
  expect((await api.call("/nominations", { method: "POST", token: otherToken, body: form })).status).toBe(201);

  const { page } = admin;
  await page.goto("/admin");
  await page.getByRole("main").getByRole("link", { name: /^Nominations/ }).click();
  await page.getByRole("heading", { name: "Nominations" }).waitFor();
  await page.getByRole("button", { name: `Approve ${APPLICANT.name}` }).waitFor();
  await audit(page, "nominations-admin");
  await page.getByRole("button", { name: `Approve ${APPLICANT.name}` }).click();
  const approve = page.getByRole("dialog", { name: "Approve Nomination" });
  await approve.getByRole("button", { name: "Approve" }).click();
  await expectToast(page, "Nomination approved: the applicant is now a candidate");
  await approve.waitFor({ state: "detached" });

  await page.getByRole("button", { name: `Reject ${OTHER.name}` }).click();
  const reject = page.getByRole("dialog", { name: "Reject Nomination" });
  await reject.getByLabel("Reason").fill("Outstanding association dues");
  await reject.getByRole("button", { name: "Reject" }).click();
  await expectToast(page, "Nomination rejected");
  await page.getByLabel("State").selectOption({ label: "Approved" });
  await page.getByText(APPLICANT.name).waitFor();
  await expect(page.getByText(OTHER.name).count()).resolves.toBe(0);

  const { page: other } = voter;
  await signIn(other, OTHER.matric, OTHER.dob, "dob");
  await other.getByRole("link", { name: "Apply to stand" }).click();
  await other.getByText("Reason: Outstanding association dues").waitFor();
  await other.getByText("Rejected", { exact: true }).waitFor();
  await logout(other);
}

/** Voting starts now: the election's start is brought forward, and nominations close with it. */
async function openVoting() {
  const { body: settings } = await api.call<Record<string, unknown>>("/election", { token: adminToken });
  const now = new Date(Date.now() - 60_000).toISOString();
  const late = await api.call<{ message: string }>("/admin/election", { method: "PUT", token: adminToken, body: JSON.stringify({ ...settings, startTime: now }) });
  expect(late.status).toBe(400);
  expect(late.body.message).toMatch(/Nominations must close no later than voting starts/);
  const started = await api.call("/admin/election", { method: "PUT", token: adminToken, body: JSON.stringify({ ...settings, startTime: now, nominationsEnd: now }) });
  expect(started.status, JSON.stringify(started.body)).toBe(200);
}

async function poll() {
  await openVoting();
  const { page } = voter;
  await signIn(page, PROPOSER.matric, PROPOSER.dob, "dob");
  // The approved applicant is on the ballot, with the photo they applied with.
  await page.goto("/vote");
  const card = page.getByRole("form", { name: CLASS_REP });
  await card.getByRole("radio", { name: APPLICANT.name }).waitFor();
  await expect(card.locator("img[src^='/api/photos/']").count()).resolves.toBeGreaterThan(0);
  await castVote(page, CLASS_REP, APPLICANT.name);
  await castVote(page, WELFARE, "Chidi Okafor");
  const { body } = await api.call<{ name: string; manifesto: string }[]>("/admin/candidates", { token: adminToken });
  expect(body.filter((c) => c.name === APPLICANT.name)).toEqual([expect.objectContaining({ manifesto: "A study room open every evening." })]);
  // The ballot is now published: the applicant can no longer withdraw.
  await applicant.page.goto("/nominations");
  await applicant.page.getByRole("button", { name: `Withdraw application for ${CLASS_REP}` }).click();
  await applicant.page.getByRole("dialog", { name: "Withdraw Application" }).getByRole("button", { name: "Withdraw" }).click();
  await expectToast(applicant.page, "This position's ballot is published");
}

async function declare() {
  const { page } = admin;
  await page.goto("/admin");
  const card = page.getByRole("region", { name: "Election", exact: true });
  // Before the close the button cannot be pressed, and the card says from when it can.
  await card.getByText(/Results can be declared from/).waitFor();
  await expect(card.getByRole("button", { name: "Declare results" }).isDisabled()).resolves.toBe(true);
  const dialog = page.getByRole("dialog", { name: "Declare results?" });

  // Close polling now: each position's end and the election's in a moment (an end must not be in the past).
  const end = new Date(Date.now() + 2_000).toISOString();
  for (const id of [classRepId, welfareId]) {
    expect((await api.call(`/admin/positions/${id}`, { method: "PATCH", token: adminToken, body: JSON.stringify({ endTime: end }) })).status).toBe(200);
  }
  const { body: settings } = await api.call<Record<string, unknown>>("/election", { token: adminToken });
  const closed = await api.call("/admin/election", { method: "PUT", token: adminToken, body: JSON.stringify({ ...settings, endTime: end }) });
  expect(closed.status, JSON.stringify(closed.body)).toBe(200);

  // Wait for the close as the admin sees it: the card, reloaded, says the results can be declared.
  const closedText = card.getByText(/voting has closed\. The results can be declared/);
  await expect
    .poll(
      async () => {
        await page.reload();
        await card.getByText(/voting has closed\. The results can be declared|Results can be declared from/).waitFor();
        return closedText.count();
      },
      { timeout: 60_000, interval: 500 },
    )
    .toBe(1);
  await card.getByRole("button", { name: "Declare results" }).click();
  await dialog.waitFor();
  await audit(page, "declare-results");
  await dialog.getByRole("button", { name: "Declare results" }).click();
  await expectToast(page, "Results declared");
  await card.getByText(/results declared/).waitFor();
}

async function visitArchive() {
  const { page } = voter;
  const voterToken = await api.login(PROPOSER.matric, { dateOfBirth: Number(PROPOSER.dob) });
  const { body: mine } = await api.call<{ positionId: string; receipt: string }[]>("/vote/my-votes", { token: voterToken });
  expect(mine).toHaveLength(2);
  const welfareReceipt = mine.find((m) => m.positionId === welfareId)!.receipt;
  const { body: archive } = await api.call<{ resultsSha256: string; audit: { seq: number; hash: string }; election: { declaredAt: string } }>("/elections/1", { token: voterToken });

  await page.goto("/");
  await page.getByRole("navigation").getByRole("link", { name: "Past Elections" }).first().click();
  await page.getByRole("heading", { name: "Past Elections" }).waitFor();
  await page.getByRole("link", { name: "SUG Elections 2026" }).click();
  await page.getByRole("heading", { name: "SUG Elections 2026" }).waitFor();
  await page.getByRole("heading", { name: WELFARE }).first().waitFor();
  await page.getByText("Elected: Chidi Okafor").waitFor();
  await page.getByText(`Elected: ${APPLICANT.name}`).waitFor();
  await page.getByTestId("archive-csv-sha256").getByText(archive.resultsSha256).waitFor();
  await page.getByLabel("Find a receipt").fill(welfareReceipt);
  await page.getByRole("list", { name: `Receipts for ${WELFARE}` }).getByText(welfareReceipt).waitFor();
  await audit(page, "past-election");

  // The archived results on the printed sheet: as published at the declaration.
  await page.getByRole("link", { name: "Print Results" }).click();
  await page.waitForURL("**/elections/1/print");
  await page.getByRole("heading", { name: "SUG Elections 2026" }).waitFor();
  await page.getByText("Declared results").waitFor();
  await expect(page.getByText(/Results declared:/).locator("time").getAttribute("datetime")).resolves.toBe(archive.election.declaredAt);
  await expect(page.getByTestId("csv-digest").textContent()).resolves.toBe(archive.resultsSha256);
  await expect(page.getByTestId("audit-head").textContent()).resolves.toBe(archive.audit.hash);
  await page.getByText(new RegExp(`Audit chain head \\(entry ${archive.audit.seq} of \\d+, at the declaration\\)`)).waitFor();
  await page.getByTestId(`outcome-${welfareId}`).getByText("Elected: Chidi Okafor").waitFor();
  await page.getByTestId(`outcome-${classRepId}`).getByText(`Elected: ${APPLICANT.name}`).waitFor();
  await audit(page, "past-election-sheet");
  // 'Print' opens the browser's print dialog; on paper the buttons are gone.
  await page.evaluate(() => {
    window.print = () => document.body.setAttribute("data-printed", "yes");
  });
  await page.getByRole("button", { name: "Print" }).click();
  await page.locator("body[data-printed='yes']").waitFor({ state: "attached" });
  await page.emulateMedia({ media: "print" });
  await page.getByRole("button", { name: "Print" }).waitFor({ state: "hidden" });
  await page.getByTestId("csv-digest").waitFor({ state: "visible" });
  await page.emulateMedia({ media: "screen" });
  await page.getByRole("link", { name: "Back to the election" }).click();
  await page.getByRole("heading", { name: "Counted Ballots" }).waitFor();
}

/** A polling officer's own sign-in lands on the station, opens the published archive from there, and nothing else. */
async function officerReadsArchive() {
  const { page } = applicant;
  await page.goto("/nominations");
  await logout(page);
  await signIn(page, OFFICER.matric, OFFICER.password, "password");
  await page.waitForURL("**/station");
  await page.getByRole("link", { name: "Past Elections" }).click();
  await page.getByRole("heading", { name: "Past Elections" }).waitFor();
  await page.getByRole("link", { name: "SUG Elections 2026" }).click();
  await page.getByRole("heading", { name: "SUG Elections 2026" }).waitFor();
  await page.getByText("Elected: Chidi Okafor").waitFor();
  await page.goto("/results");
  await page.waitForURL("**/station");
}

async function startByElection() {
  // The voter's chat is open on the old election's messages while the admin starts the next.
  const v = voter.page;
  await v.goto("/");
  await openChat(v);
  await say(v, "Good luck, everyone");
  await say(v, "Congratulations to the winners!");
  const oldMessages = chatPanel(v).getByTestId("chat-message").filter({ hasText: /Good luck, everyone|Congratulations to the winners!/ });
  await expect.poll(() => oldMessages.count()).toBe(2);
  await v.evaluate(() => document.body.setAttribute("data-same-page", "yes"));

  const { page } = admin;
  await page.goto("/admin");
  await page.getByRole("link", { name: "Start a new election" }).click();
  await page.getByRole("heading", { name: "Start a new election" }).waitFor();
  await page.getByLabel("Election Title").fill("SUG By-Election 2026");
  await page.getByLabel("Subtitle").fill(WELFARE);
  await page.getByLabel("Start Time").fill(await localDateTime(page, -5 * 60_000));
  await page.getByLabel("End Time").fill(await localDateTime(page, 3 * HOUR));
  await expect(page.getByLabel(/Copy the positions of SUG Elections 2026/).isChecked()).resolves.toBe(true);
  // A by-election fills one position: every one is ticked, the other is unticked.
  const toCopy = page.getByRole("group", { name: "Positions to copy" });
  await toCopy.getByText("2 of 2 selected").waitFor();
  await toCopy.getByRole("checkbox", { name: CLASS_REP }).uncheck();
  await toCopy.getByText("1 of 2 selected").waitFor();
  await expect(page.getByLabel("Keep the voter roll").isChecked()).resolves.toBe(true);
  await audit(page, "start-election");
  await page.getByRole("button", { name: "Start Election" }).click();
  const dialog = page.getByRole("dialog", { name: "Start a new election?" });
  await dialog.getByText(`Positions copied: ${WELFARE}.`).waitFor();
  await dialog.getByRole("button", { name: "Start Election" }).click();
  await expectToast(page, "New election started");
  await page.waitForURL("**/admin");

  // The chat was cleared with the old election: the open panel drops its messages, on the same page.
  await chatPanel(v).getByText("No messages yet. Say hello!").waitFor();
  await expect(oldMessages.count()).resolves.toBe(0);
  await chatPanel(v).getByText("Live").waitFor();
  await expect(v.locator("body[data-same-page='yes']").count()).resolves.toBe(1);

  // Only the chosen position was copied, without candidates.
  const { body: copied } = await api.call<{ _id: string; title: string; candidates: unknown[] }[]>("/admin/positions", { token: adminToken });
  expect(copied.map((p) => [p.title, p.candidates.length])).toEqual([[WELFARE, 0]]);
  expect(copied[0]._id).not.toBe(welfareId);
  await page.goto("/admin/manage-positions");
  await page.getByRole("row", { name: new RegExp(WELFARE) }).waitFor();
  await expect(page.getByRole("row", { name: new RegExp(CLASS_REP) }).count()).resolves.toBe(0);
  await api.createCandidate(adminToken, "Bisi Adeyemi", copied[0]._id, [80, 200, 80]);
  return copied[0]._id;
}

async function voteAgain(positionId: string) {
  const v = voter.page;
  await v.keyboard.press("Escape");
  await v.goto("/");
  await v.getByRole("heading", { name: "SUG By-Election 2026" }).waitFor();
  await castVote(v, WELFARE, "Bisi Adeyemi");
  // Counted in the new election (its ballot waits for a batch of 10 to reach the tallies);
  // the old election's votes are not among this election's votes.
  const voterToken = await api.login(PROPOSER.matric, { dateOfBirth: Number(PROPOSER.dob) });
  const { body: mine } = await api.call<{ positionId: string; candidateName: string }[]>("/vote/my-votes", { token: voterToken });
  expect(mine.map((m) => [m.positionId, m.candidateName])).toEqual([[positionId, "Bisi Adeyemi"]]);
  // The declared election is unchanged in its archive.
  const { body: archive } = await api.call<{ receipts: { positionTitle: string; total: number }[] }>("/elections/1", { token: adminToken });
  expect(archive.receipts.map((r) => [r.positionTitle, r.total])).toEqual([
    [CLASS_REP, 1],
    [WELFARE, 1],
  ]);
}

describe("an election's whole life", () => {
  test("nominations, screening, the ballot, polling, declaration, the archive and its sheet, a by-election, voting again", { timeout: 420_000 }, async () => {
    await openNominations();
    await applyWithSupporters();
    await supportersConfirm();
    await screen();
    await poll();
    await declare();
    await visitArchive();
    await officerReadsArchive();
    const byElection = await startByElection();
    await voteAgain(byElection);
  });
});
