/**
 * Ballot methods in Chromium: the admin creates a ranked position (two seats) and a referendum on
 * Create Position's 'Voting Method'; a voter on a 390 px phone ranks by keyboard, reviews and
 * casts, and answers the referendum; another voter ranks with the network cut (queued, then
 * delivered once); the positions close and the admin's Detailed results show the count stage by
 * stage under its rule set, the referendum's verdict and threshold, the BLT file and the printed
 * sheet's stages. Runs its own server with no offline grace, so a position closes at its end.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { PositionResult, Results } from "@evoting/shared";
import { ADMIN } from "./support/accounts";
import { PHONE, audit, openBrowser, signIn, type Browser } from "./support/browser";
import { startServer, type RunningServer } from "./support/global-setup";
import { serverApi, setDeviceOffline, waitForController } from "./support/server-api";
import { expectToast, localDateTime } from "./support/steps";
import { startNetworkSwitch, type NetworkSwitch } from "./support/network-switch";

const PHONE_VOTER = { name: "Ngozi Eze", matric: "2022/5570411", dob: "20040305" };
const OFFLINE_VOTER = { name: "Sade Bello", matric: "2022/5570412", dob: "20040306" };
const NAMES = ["Ada Obi", "Grace Udo", "Linus Ike", "Margaret Oke"];

let server: RunningServer;
let wifi: NetworkSwitch;
let api: ReturnType<typeof serverApi>;
let adminToken = "";
let admin: Browser;
let phone: Browser;
let offline: Browser;
const ids: Record<string, string> = {};

const card = (page: Page, title: string) => page.getByRole("form", { name: title });

async function castByApi(matric: string, dob: string, body: Record<string, unknown>) {
  const token = await api.login(matric, { dateOfBirth: Number(dob) });
  const res = await api.call("/vote", { method: "POST", token, headers: { "Idempotency-Key": crypto.randomUUID() }, body: JSON.stringify(body) });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
}

beforeAll(async () => {
  server = await startServer({ VOTE_GRACE_MINUTES: "0" });
  api = serverApi(server.baseURL);
  adminToken = await api.login(ADMIN.matric, { password: ADMIN.password });
  await api.createVoter(adminToken, PHONE_VOTER);
  await api.createVoter(adminToken, OFFLINE_VOTER);
  wifi = await startNetworkSwitch(server.baseURL);
  [admin, phone, offline] = await Promise.all([openBrowser(server.baseURL), openBrowser(server.baseURL, PHONE), openBrowser(wifi.url)]);
});

afterAll(async () => {
  await Promise.all([admin?.close(), phone?.close(), offline?.close()]);
  await wifi?.close();
  await server?.stop();
});

describe("ballot methods", () => {
  test("the admin creates a ranked position and a referendum with 'Voting Method'", async () => {
    const { page } = admin;
    await signIn(page, ADMIN.matric, ADMIN.password, "password");
    await page.goto("/admin/positions");
    await page.getByLabel("Position Title").fill("Chair");
    await page.getByLabel("Start Time").fill(await localDateTime(page, -10 * 60_000));
    await page.getByLabel("End Time").fill(await localDateTime(page, 3 * 3_600_000));
    await page.getByLabel("Voting Method").selectOption({ label: "Ranked choice" });
    await page.getByLabel("Seats").fill("2");
    await audit(page, "method-create-ranked");
    await page.getByRole("button", { name: "Create Position" }).click();
    await expectToast(page, "Position created successfully!");

    await page.getByLabel("Position Title").fill("Amendment");
    await page.getByLabel("Start Time").fill(await localDateTime(page, -10 * 60_000));
    await page.getByLabel("End Time").fill(await localDateTime(page, 3 * 3_600_000));
    await page.getByLabel("Voting Method").selectOption({ label: "Referendum" });
    await page.getByLabel("Question").fill("Should article 4 be amended?");
    await page.getByLabel("Passes With").selectOption({ label: "More than two thirds Yes" });
    await page.getByRole("button", { name: "Create Position" }).click();
    await page.locator("[data-sonner-toast]", { hasText: "Position created successfully!" }).nth(1).waitFor();

    const { body } = await api.call<{ _id: string; title: string; method: string; seats: number; passThreshold: number }[]>("/admin/positions", { token: adminToken });
    const chair = body.find((p) => p.title === "Chair")!;
    const amendment = body.find((p) => p.title === "Amendment")!;
    expect(chair).toMatchObject({ method: "ranked", seats: 2 });
    expect(amendment).toMatchObject({ method: "referendum" });
    expect(amendment.passThreshold).toBeCloseTo(2 / 3);
    ids.chair = chair._id;
    ids.amendment = amendment._id;
    for (const [i, name] of NAMES.entries()) ids[name] = await api.createCandidate(adminToken, name, ids.chair, [40 + i * 50, 90, 160]);

    await page.goto("/admin/manage-positions");
    await page.getByRole("row", { name: /Chair/ }).getByText("Ranked choice (2 seats)").waitFor();
    await page.getByRole("row", { name: /Amendment/ }).getByText("Referendum").waitFor();
  });

  test("on a 390 px phone a voter ranks by keyboard, reviews and casts, and answers the referendum", async () => {
    const { page } = phone;
    await signIn(page, PHONE_VOTER.matric, PHONE_VOTER.dob, "dob");
    await page.goto("/vote");
    const chair = card(page, "Chair");
    // Keyboard only: focus a rank, choose with the arrow keys, Tab to the next candidate.
    const linus = chair.getByRole("combobox", { name: "Rank for Linus Ike" });
    await linus.focus();
    await page.keyboard.press("ArrowDown");
    await expect.poll(() => linus.inputValue()).toBe("1");
    await chair.getByRole("combobox", { name: "Rank for Ada Obi" }).focus();
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("ArrowDown");
    await expect.poll(() => chair.getByRole("combobox", { name: "Rank for Ada Obi" }).inputValue()).toBe("2");
    await chair.getByText("Your ranking: 1st Linus Ike, 2nd Ada Obi").waitFor();
    // Nothing is wider than the phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

    await chair.getByRole("button", { name: "Review Vote" }).click();
    const review = chair.getByRole("region", { name: "Review your vote" });
    await expect.poll(() => review.getByRole("listitem").allTextContents()).toEqual(["1st Linus Ike", "2nd Ada Obi"]);
    await audit(page, "method-ranked-review-phone");
    await chair.getByRole("button", { name: "Cast Vote" }).click();
    await chair.getByRole("button", { name: "Vote Cast" }).waitFor();
    await chair.getByText("for 1. Linus Ike, 2. Ada Obi").waitFor();
    await expectToast(page, "Vote cast successfully!");

    const amendment = card(page, "Amendment");
    await amendment.getByText("Should article 4 be amended?").waitFor();
    await amendment.getByRole("radio", { name: "Yes" }).check();
    await amendment.getByRole("button", { name: "Review Vote" }).click();
    await amendment.getByText("Your answer: Yes").waitFor();
    await amendment.getByRole("button", { name: "Cast Vote" }).click();
    await amendment.getByRole("button", { name: "Vote Cast" }).waitFor();
    await audit(page, "method-voted-phone");
  });

  test("a ranking cast with the network cut is queued, then delivered once", async () => {
    const { page, context } = offline;
    await signIn(page, OFFLINE_VOTER.matric, OFFLINE_VOTER.dob, "dob");
    await page.goto("/vote");
    await waitForController(page);
    await card(page, "Chair").getByRole("combobox", { name: "Rank for Ada Obi" }).waitFor();
    await setDeviceOffline(context, wifi, true);
    const chair = card(page, "Chair");
    await chair.getByRole("combobox", { name: "Rank for Ada Obi" }).selectOption({ label: "1st choice" });
    await chair.getByRole("combobox", { name: "Rank for Grace Udo" }).selectOption({ label: "2nd choice" });
    await chair.getByRole("button", { name: "Review Vote" }).click();
    await chair.getByRole("button", { name: "Cast Vote" }).click();
    await chair.getByRole("button", { name: "Queued" }).waitFor();
    await chair.getByText("(your choice: 1. Ada Obi, 2. Grace Udo)").waitFor();
    await page.reload();
    await card(page, "Chair").getByRole("button", { name: "Queued" }).waitFor();
    await expect(card(page, "Chair").getByRole("combobox", { name: "Rank for Grace Udo" }).inputValue()).resolves.toBe("2");

    await setDeviceOffline(context, wifi, false);
    await expectToast(page, "Vote cast successfully!");
    await card(page, "Chair").getByRole("button", { name: "Vote Cast" }).waitFor();
    const token = await api.login(OFFLINE_VOTER.matric, { dateOfBirth: Number(OFFLINE_VOTER.dob) });
    const mine = await api.call<{ positionId: string; candidateIds?: string[] }[]>("/vote/my-votes", { token });
    expect(mine.body).toEqual([expect.objectContaining({ positionId: ids.chair, candidateIds: [ids["Ada Obi"], ids["Grace Udo"]] })]);
  });

  test("closed: the admin sees the count stage by stage, the referendum's verdict, the BLT file and the printed stages", async () => {
    // More voters, straight to the server: first preferences Ada 4, Grace 1, Linus 1, Margaret 1.
    const rankings = [["Ada Obi", "Grace Udo"], ["Ada Obi"], ["Ada Obi", "Linus Ike"], ["Grace Udo"], ["Margaret Oke", "Linus Ike"]];
    for (const [i, ranking] of rankings.entries()) {
      const v = { name: `Voter ${i}`, matric: `2022/55705${String(i).padStart(2, "0")}`, dob: "20040101" };
      await api.createVoter(adminToken, v);
      await castByApi(v.matric, v.dob, { positionId: ids.chair, ranking: ranking.map((n) => ids[n]) });
      await castByApi(v.matric, v.dob, { positionId: ids.amendment, choice: i === 0 ? "no" : "yes" });
    }
    // Close both in a few seconds (no offline grace on this server). The default ballot batch
    // stays: a closed position's ballots are all applied, whatever the batch.
    const end = new Date(Date.now() + 4_000).toISOString();
    for (const id of [ids.chair, ids.amendment]) {
      const res = await api.call(`/admin/positions/${id}`, { method: "PATCH", token: adminToken, body: JSON.stringify({ endTime: end }) });
      expect(res.status).toBe(200);
    }
    const resultOf = async (id: string) => (await api.call<Results>("/vote/results", { token: adminToken })).body.results.find((r) => r.positionId === id)!;
    // The mixer applies a closed position's waiting ballots a moment after the close.
    await expect.poll(async () => { const r = await resultOf(ids.chair); return `${r.count} ${r.totalVotes}`; }, { timeout: 30_000, interval: 1_000 }).toBe("full 7");
    const chair: PositionResult = await resultOf(ids.chair);
    expect(chair).toMatchObject({ rule: "scottish-stv", quota: 3, totalVotes: 7 });
    expect(chair.elected).toHaveLength(2);
    expect(chair.elected![0]).toBe(ids["Ada Obi"]);
    await expect.poll(async () => (await resultOf(ids.amendment)).referendum).toEqual({ yes: 5, no: 1, abstentions: 0, passed: true });

    const { page } = admin;
    await page.goto("/results?tab=detailed");
    const stages = page.getByTestId(`rounds-${ids.chair}`);
    await stages.getByText("Scottish STV (quota 3)").waitFor();
    expect(await stages.getByRole("columnheader").count()).toBe(chair.rounds!.length + 1);
    await stages.getByText("Surplus of Ada Obi").waitFor();
    await stages.getByRole("rowheader", { name: "Non-transferable" }).waitFor();
    await stages.getByText(/Stage 1: Ada Obi elected: reached the quota/).waitFor();
    const names = chair.elected!.map((id) => NAMES.find((n) => ids[n] === id)!);
    await page.getByTestId(`method-outcome-${ids.chair}`).getByText(`Leading: ${names.join(", ")}`).waitFor();
    const amendment = page.getByTestId(`method-${ids.amendment}`);
    await amendment.getByText("Passing so far", { exact: true }).waitFor();
    await amendment.getByText(/Passes with: More than two thirds Yes/).waitFor();
    await page.getByRole("button", { name: "Download ballots (BLT)" }).waitFor();
    await audit(page, "method-results-detailed");

    const blt = await fetch(`${server.baseURL}/api/admin/positions/${ids.chair}/ballots.blt`, { headers: { authorization: `Bearer ${adminToken}` } });
    expect(blt.status).toBe(200);
    const text = await blt.text();
    expect(text.split("\n")[0]).toBe("4 2");

    await page.goto("/results?tab=top-candidates");
    await page.getByTestId(`method-card-${ids.amendment}`).getByText("Passing so far").waitFor();
    await page.goto("/admin/results/print");
    await page.getByTestId(`rounds-${ids.chair}`).getByText("Surplus of Ada Obi").waitFor();
    await page.getByTestId(`outcome-${ids.amendment}`).getByText("Passing so far").waitFor();
    await audit(page, "method-results-sheet");
  });
});
