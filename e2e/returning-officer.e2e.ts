/**
 * Polling day as the returning officer and a voter live it, in Chromium, on its own server:
 * a position holding ballots cannot be deleted; a new ranked position starts at one seat;
 * results say 'provisional' until the declaration; the figures agree with each other; the close
 * and its grace are said plainly; 'Close voting now' and 'Declare results' as two plain steps;
 * the voter's way to the ballot from Home. Each step is seen at 1280 px and 390 px.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ADMIN } from "./support/accounts";
import { PHONE, audit, openBrowser, signIn, type Browser } from "./support/browser";
import { startServer, type RunningServer } from "./support/global-setup";
import { serverApi } from "./support/server-api";
import { expectToast, localDateTime } from "./support/steps";

const VOTERS = [
  { name: "Tola Ade", matric: "2023/5570601", dob: "20050101" },
  { name: "Uche Obi", matric: "2023/5570602", dob: "20050102" },
  { name: "Vera Ola", matric: "2023/5570603", dob: "20050103" },
];

let server: RunningServer;
let api: ReturnType<typeof serverApi>;
let adminToken = "";
let desk: Browser;
let phone: Browser;
const ids: Record<string, string> = {};
const candidates: Record<string, string> = {};

async function castByApi(voter: (typeof VOTERS)[number], positionId: string, candidateId: string) {
  const token = await api.login(voter.matric, { dateOfBirth: Number(voter.dob) });
  const res = await api.call("/vote", { method: "POST", token, headers: { "Idempotency-Key": crypto.randomUUID() }, body: JSON.stringify({ positionId, candidateId }) });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
}

/** Both sizes: the admin's laptop and phone, each signed in. */
async function both(run: (page: Page, size: "1280" | "390") => Promise<void>) {
  await run(desk.page, "1280");
  await run(phone.page, "390");
}

beforeAll(async () => {
  // A short offline grace (15 s), so the close, its grace and the declaration fit in one run.
  server = await startServer({ VOTE_GRACE_MINUTES: "0.25" });
  api = serverApi(server.baseURL);
  adminToken = await api.login(ADMIN.matric, { password: ADMIN.password });
  for (const v of VOTERS) {
    await api.createVoter(adminToken, v);
  }
  // Each ballot reaches the tallies at once here; the waiting ballots are item 4's.
  await api.setBallotBatch(adminToken, 1);
  ids.president = await api.createPosition(adminToken, "President");
  ids.treasurer = await api.createPosition(adminToken, "Treasurer");
  candidates.ada = await api.createCandidate(adminToken, "Ada Obi", ids.president, [200, 80, 80]);
  candidates.ben = await api.createCandidate(adminToken, "Ben Uzo", ids.president, [80, 80, 200]);
  candidates.cy = await api.createCandidate(adminToken, "Cy Eke", ids.treasurer, [80, 200, 80]);
  await castByApi(VOTERS[0], ids.president, candidates.ada);
  [desk, phone] = await Promise.all([openBrowser(server.baseURL), openBrowser(server.baseURL, PHONE)]);
  await signIn(desk.page, ADMIN.matric, ADMIN.password, "password");
  await signIn(phone.page, ADMIN.matric, ADMIN.password, "password");
});

afterAll(async () => {
  await Promise.all([desk?.close(), phone?.close()]);
  await server?.stop();
});

describe("the returning officer's polling day", () => {
  test("1. a position holding ballots cannot be deleted; the dialog says how many it holds", async () => {
    await both(async (page, size) => {
      await page.goto("/admin/manage-positions");
      await page.getByRole("button", { name: "Delete President" }).click();
      const dialog = page.getByRole("dialog", { name: "Delete Position" });
      await dialog.getByText('The position "President" holds 1 ballot and cannot be deleted.').waitFor();
      await expect(dialog.getByRole("button", { name: "Delete Position" }).count()).resolves.toBe(0);
      await audit(page, `ro-delete-refused-${size}`);
      await dialog.getByRole("button", { name: "Close" }).click();
      await dialog.waitFor({ state: "detached" });
    });
    // The API refuses it too, and the ballot is still counted.
    const refused = await api.call<{ message: string }>(`/admin/positions/${ids.president}`, { method: "DELETE", token: adminToken });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/close it instead/);

    // A position without ballots: the baseline's dialog and toast (docs/product.md).
    const spare = await api.createPosition(adminToken, "Spare Seat");
    const { page } = desk;
    await page.goto("/admin/manage-positions");
    await page.getByRole("button", { name: "Delete Spare Seat" }).click();
    const dialog = page.getByRole("dialog", { name: "Delete Position" });
    await dialog.getByText('Are you sure you want to delete the position "Spare Seat"?').waitFor();
    await dialog.getByRole("button", { name: "Delete Position" }).click();
    await expectToast(page, "Position deleted successfully!");
    await page.getByRole("row", { name: /Spare Seat/ }).waitFor({ state: "detached" });
    expect((await api.call(`/admin/positions/${spare}`, { method: "DELETE", token: adminToken })).status).toBe(404);
  });

  test("2. a new ranked position starts at one seat, shown in the review before saving and in the positions list", async () => {
    await both(async (page, size) => {
      await page.goto("/admin/positions");
      await page.getByLabel("Position Title").fill(`Sports Director ${size}`);
      await page.getByLabel("Start Time").fill(await localDateTime(page, -10 * 60_000));
      await page.getByLabel("End Time").fill(await localDateTime(page, 3 * 3_600_000));
      await page.getByLabel("Voting Method").selectOption({ label: "Ranked choice" });
      await expect(page.getByLabel("Seats").inputValue()).resolves.toBe("1");
      await page.getByText("This position will elect 1 candidate (1 seat).").waitFor();
      await audit(page, `ro-create-ranked-${size}`);
      await page.getByRole("button", { name: "Create Position" }).click();
      await expectToast(page, "Position created successfully!");
      await page.goto("/admin/manage-positions");
      await page.getByRole("row", { name: new RegExp(`Sports Director ${size}`) }).getByText("Ranked choice (1 seat)").waitFor();
    });
    const { body } = await api.call<{ title: string; seats: number }[]>("/admin/positions", { token: adminToken });
    expect(body.filter((p) => p.title.startsWith("Sports Director")).map((p) => p.seats)).toEqual([1, 1]);
  });

  test("3. results say 'provisional' and name who leads until the declaration, on screen and on the printed sheet", async () => {
    await both(async (page, size) => {
      await page.goto("/results");
      await page.getByTestId("provisional-notice").waitFor();
      await page.getByRole("heading", { name: "Current Leaders by Position" }).waitFor();
      await expect(page.getByText(/Elected/).count()).resolves.toBe(0);
      await audit(page, `ro-results-provisional-${size}`);
      await page.goto("/admin/results/print");
      await page.getByText("Provisional results", { exact: true }).waitFor();
      await page.getByTestId(`outcome-${ids.president}`).getByText("Leading: Ada Obi").waitFor();
      await expect(page.getByText(/official/i).count()).resolves.toBe(0);
      await expect(page.getByRole("region", { name: "Signatures" }).count()).resolves.toBe(0);
      await audit(page, `ro-sheet-provisional-${size}`);
    });
    const csv = await fetch(`${server.baseURL}/api/admin/results.csv`, { headers: { authorization: `Bearer ${adminToken}` } }).then((r) => r.text());
    expect(csv).toContain(`President,Ada Obi,${candidates.ada},1,100.00,leading`);
    expect(csv).toContain("Provisional: these figures are not final until the results are declared");
  });

  test("4. ballots waiting for their group are said once, with the count, and each card says how many of its own wait", async () => {
    await api.setBallotBatch(adminToken, 10);
    await castByApi(VOTERS[1], ids.treasurer, candidates.cy);
    await both(async (page, size) => {
      await page.goto("/results");
      const notice = page.getByTestId("ballot-batch-notice");
      await notice.getByText(/1 vote is waiting to be added\. A position's remaining votes are added as soon as it closes/).waitFor();
      await expect(page.getByText("No votes have been cast yet.").count()).resolves.toBe(0);
      await page.getByRole("tab", { name: "Detailed" }).click();
      await page.getByText("0 votes counted · 1 waiting to be added", { exact: false }).waitFor();
      await expect(page.getByTestId("ballot-batch-notice").count()).resolves.toBe(1);
      await audit(page, `ro-results-waiting-${size}`);
    });
  });

  test("6. 'Close voting now' closes everything at once; 'Declare results' waits for the grace, saying when, then declares", async () => {
    const { page } = desk;
    await page.goto("/admin");
    const card = page.getByRole("region", { name: "Election", exact: true });
    await card.getByText(/voting is open\. Results can be declared from/).waitFor();
    await expect(card.getByRole("button", { name: "Declare results" }).isDisabled()).resolves.toBe(true);
    await phone.page.goto("/admin");
    await phone.page.getByRole("region", { name: "Election", exact: true }).getByRole("button", { name: "Close voting now" }).waitFor();
    await audit(phone.page, "ro-election-card-open-390");
    await audit(page, "ro-election-card-open-1280");

    await card.getByRole("button", { name: "Close voting now" }).click();
    const dialog = page.getByRole("dialog", { name: "Close voting now?" });
    await audit(page, "ro-close-dialog-1280");
    await dialog.getByRole("button", { name: "Close voting now" }).click();
    await expectToast(page, "Voting closed at");
    await card.getByText(/voting has closed\. Results can be declared from \d+ \w+ \d{4}, \d\d:\d\d, when the grace for votes cast offline ends/).waitFor();
    await expect(card.getByRole("button", { name: "Close voting now" }).count()).resolves.toBe(0);
    await expect(card.getByRole("button", { name: "Declare results" }).isDisabled()).resolves.toBe(true);
    await audit(page, "ro-election-card-grace-1280");

    // Every position closed at once, audited.
    const { body: positions } = await api.call<{ title: string; endTime: string }[]>("/admin/positions", { token: adminToken });
    expect(new Set(positions.map((p) => p.endTime)).size).toBe(1);
    const { body: entries } = await api.call<{ items: { summary: string }[] }>("/admin/audit?action=election.close", { token: adminToken });
    expect(entries.items).toHaveLength(1);

    // The grace (15 s here) runs out; the button is then enabled and declares.
    const ready = card.getByText("voting has closed. The results can be declared.", { exact: false });
    await expect
      .poll(
        async () => {
          await page.reload();
          await card.getByText(/voting has closed/).waitFor();
          return ready.count();
        },
        { timeout: 60_000, interval: 1_000 },
      )
      .toBe(1);
    await card.getByRole("button", { name: "Declare results" }).click();
    await page.getByRole("dialog", { name: "Declare results?" }).getByRole("button", { name: "Declare results" }).click();
    await expectToast(page, "Results declared");

    // From the declaration: 'Official results', 'Elected', and the lines to sign.
    await both(async (p, size) => {
      await p.goto("/admin/results/print");
      await p.getByText("Official results", { exact: true }).waitFor();
      await p.getByTestId(`outcome-${ids.president}`).getByText("Elected: Ada Obi").waitFor();
      await p.getByRole("region", { name: "Signatures" }).getByText("Returning officer: name").waitFor();
      await audit(p, `ro-sheet-declared-${size}`);
    });
  });

  test("7. a voter's Home shows 'Vote now' with the positions left, then 'You have voted in every position', and the last declared results", async () => {
    const HOUR = 3_600_000;
    const started = await api.post(
      "/admin/elections",
      { title: "SUG By-Election", subtitle: "", startTime: new Date(Date.now() - 2 * HOUR).toISOString(), endTime: new Date(Date.now() + 4 * HOUR).toISOString(), copyPositions: false },
      adminToken,
    );
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const welfare = await api.createPosition(adminToken, "Welfare Director");
    const sports = await api.createPosition(adminToken, "Sports Director");
    await api.createCandidate(adminToken, "Gbemi Ola", welfare, [200, 80, 80]);
    await api.createCandidate(adminToken, "Hassan Bello", welfare, [80, 80, 200]);
    await api.createCandidate(adminToken, "Ife Adu", sports, [80, 200, 80]);
    await api.createCandidate(adminToken, "Jide Eze", sports, [200, 200, 80]);

    const voter = await openBrowser(server.baseURL, PHONE);
    try {
      const { page } = voter;
      await signIn(page, VOTERS[2].matric, VOTERS[2].dob, "dob");
      const card = page.getByRole("region", { name: "Your ballot" });
      await card.getByText("You have 2 positions left to vote in.").waitFor();
      await card.getByRole("link", { name: "Department Elections" }).waitFor();
      await audit(page, "ro-home-vote-now-390");
      await card.getByRole("link", { name: "Vote now" }).click();
      await page.waitForURL("**/vote");
      for (const [position, name] of [
        ["Welfare Director", "Gbemi Ola"],
        ["Sports Director", "Ife Adu"],
      ]) {
        const form = page.getByRole("form", { name: position });
        await form.getByRole("radio", { name }).check();
        await form.getByRole("button", { name: "Cast Vote" }).click();
        await form.getByText(/Your vote has been recorded/).waitFor();
      }
      await page.goto("/");
      await card.getByText("You have voted in every position.").waitFor();
      await expect(card.getByRole("link", { name: "Vote now" }).count()).resolves.toBe(0);
      await card.getByRole("link", { name: "Counted Ballots" }).waitFor();
      await audit(page, "ro-home-all-voted-390");
      await page.setViewportSize({ width: 1280, height: 800 });
      await audit(page, "ro-home-all-voted-1280");
    } finally {
      await voter.close();
    }
  });
});
