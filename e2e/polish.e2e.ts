/**
 * Polish seen at 390 and 1280 px, in Chromium on its own server: nothing is cut off or jumps,
 * each 'Read manifesto' sits in its own candidate's box, ranked rows line up, a field's
 * 'is required' goes once it is filled, the audit log prints local times, and the turnout chart
 * of a new election starts empty. Each screen is saved at both widths for a look by eye.
 */
import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ADMIN } from "./support/accounts";
import { DESKTOP, PHONE, audit, openBrowser, settled, signIn, type Browser } from "./support/browser";
import { startServer, type RunningServer } from "./support/global-setup";
import { serverApi } from "./support/server-api";
import { testPhoto } from "./support/png";
import { expectToast, localDateTime } from "./support/steps";

const HOUR = 3_600_000;
const WELFARE = "Director of Welfare and Student Affairs";
const SPORTS = "Sports Director";
const VOTER = {
  name: "Oluwaseun Adebayo-Johnson",
  matric: "2022/5570801",
  dob: "20040401",
};
const APPLICANT = {
  name: "Temitope Ogunleye-Bamidele",
  matric: "2022/5570802",
  dob: "20040402",
};
const SIZES = [
  ["390", PHONE],
  ["1280", DESKTOP],
] as const;

let server: RunningServer;
let api: ReturnType<typeof serverApi>;
let adminToken = "";
let admin: Browser;
let voter: Browser;
let welfareId = "";

async function candidate(positionId: string, name: string, manifesto: string | null, hue: [number, number, number]) {
  const form = new FormData();
  form.append("name", name);
  form.append("positionId", positionId);
  if (manifesto) form.append("manifesto", manifesto);
  form.append("photo", new Blob([new Uint8Array(testPhoto(hue))], { type: "image/png" }), "photo.png");
  const { status, body } = await api.call<{ _id: string }>("/admin/candidates", { method: "POST", token: adminToken, body: form });
  expect(status, JSON.stringify(body)).toBe(201);
  return body._id;
}

const settings = async () => (await api.call<Record<string, unknown>>("/election", { token: adminToken })).body;

beforeAll(async () => {
  server = await startServer({ VOTE_GRACE_MINUTES: "0" });
  api = serverApi(server.baseURL);
  adminToken = await api.login(ADMIN.matric, { password: ADMIN.password });
  // Nominations first (voting starts in two hours), then voting is brought forward to now.
  const nominations = {
    nominationsStart: new Date(Date.now() - HOUR).toISOString(),
    nominationsEnd: new Date(Date.now() + HOUR).toISOString(),
  };
  const window = {
    startTime: new Date(Date.now() + 2 * HOUR).toISOString(),
    endTime: new Date(Date.now() + 5 * HOUR).toISOString(),
  };
  const put = await api.call("/admin/election", {
    method: "PUT",
    token: adminToken,
    body: JSON.stringify({
      ...(await settings()),
      title: "SUG Elections 2026",
      ...window,
      ...nominations,
    }),
  });
  expect(put.status, JSON.stringify(put.body)).toBe(200);
  const positionWindow = {
    startTime: new Date(Date.now() - HOUR).toISOString(),
    endTime: window.endTime,
  };
  const welfare = await api.post<{ _id: string }>("/admin/positions", { title: WELFARE, ...positionWindow }, adminToken);
  const sports = await api.post<{ _id: string }>("/admin/positions", { title: SPORTS, method: "ranked", seats: 1, ...positionWindow }, adminToken);
  expect([welfare.status, sports.status]).toEqual([201, 201]);
  welfareId = welfare.body._id;
  await candidate(welfareId, "Chidinma Okonkwo-Eze", "Free evening buses from the hostels.", [200, 80, 80]);
  await candidate(welfareId, "Ife Adu", null, [80, 200, 80]);
  await candidate(welfareId, "Babatunde Olawale", "A counsellor on call every weekday.", [80, 80, 200]);
  await candidate(sports.body._id, "Jide Eze", "Floodlights for the five-a-side pitch.", [200, 200, 80]);
  await candidate(sports.body._id, "Ngozi Chukwuemeka-Obi", null, [200, 80, 200]);
  await candidate(sports.body._id, "Tunde Bakare", "Inter-faculty games every semester.", [80, 200, 200]);
  for (const v of [VOTER, APPLICANT]) {
    await api.createVoter(adminToken, v);
  }
  // An application waiting for screening (no supporters: straight to the committee).
  const form = new FormData();
  form.append("positionId", welfareId);
  form.append("manifesto", "Water in every hostel block.");
  form.append("photo", new Blob([new Uint8Array(testPhoto([60, 60, 200]))], { type: "image/png" }), "me.png");
  const applied = await api.call("/nominations", {
    method: "POST",
    token: await api.login(APPLICANT.matric, {
      dateOfBirth: Number(APPLICANT.dob),
    }),
    body: form,
  });
  expect(applied.status, JSON.stringify(applied.body)).toBe(201);
  const now = new Date(Date.now() - 60_000).toISOString();
  const started = await api.call("/admin/election", {
    method: "PUT",
    token: adminToken,
    body: JSON.stringify({
      ...(await settings()),
      startTime: now,
      nominationsEnd: now,
    }),
  });
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  [admin, voter] = await Promise.all([openBrowser(server.baseURL), openBrowser(server.baseURL, PHONE)]);
  await signIn(admin.page, ADMIN.matric, ADMIN.password, "password");
});

afterAll(async () => {
  await Promise.all([admin?.close(), voter?.close()]);
  await server?.stop();
});

const box = async (locator: Locator) => {
  const b = await locator.boundingBox();
  expect(b, String(locator)).not.toBeNull();
  return b!;
};

/** The element's text is not cut: it fits its own box, and that box is inside the visible part of every scrolling ancestor. */
async function notClipped(locator: Locator) {
  const problem = await locator.evaluate((el) => {
    if (el.scrollWidth > el.clientWidth + 1) return `its text is ${el.scrollWidth}px in a ${el.clientWidth}px box`;
    const r = el.getBoundingClientRect();
    for (let a = el.parentElement; a; a = a.parentElement) {
      const style = getComputedStyle(a);
      if (style.overflowX === "visible") continue;
      const c = a.getBoundingClientRect();
      if (r.left < c.left - 1 || r.right > c.right + 1) return `it runs past a ${style.overflowX} box (${Math.round(r.right)} > ${Math.round(c.right)})`;
    }
    if (r.right > document.documentElement.clientWidth + 1) return "it runs past the window";
    return null;
  });
  expect(problem, String(locator)).toBeNull();
}

async function atWidth(page: Page, size: (typeof SIZES)[number][1]) {
  await page.setViewportSize(size);
}

describe("polish at 390 and 1280 px", () => {
  test("login: the title stays on one line, the form does not move when the date of birth field appears, one status text while checking", async () => {
    const page = (await openBrowser(server.baseURL, PHONE)).page;
    // check-user is held until the checking state has been looked at (the context's route also
    // catches the service worker's fetch); `answer` lets the held ones through.
    let answer = () => {};
    let answered = Promise.resolve();
    await page.context().route("**/api/auth/check-user**", async (route) => {
      await answered;
      await route.continue();
    });
    for (const [name, size] of SIZES) {
      await atWidth(page, size);
      await page.goto("/login");
      const matric = page.getByLabel("Matriculation Number");
      await matric.waitFor();
      const heading = page.getByRole("heading", { name: "Sign in" });
      const before = await box(heading);
      await audit(page, `polish-login-${name}`);
      if (size === PHONE) {
        const title = page.getByRole("main").getByText("CSC E-Voting", { exact: true });
        const lines = await title.evaluate((el) => Math.round(el.getBoundingClientRect().height / parseFloat(getComputedStyle(el).lineHeight)));
        expect(lines, "'CSC E-Voting' wraps").toBe(1);
      }
      answered = new Promise<void>((resolve) => (answer = resolve));
      await matric.fill(VOTER.matric);
      const checking = page.getByText(/Checking (user|authentication method)\.\.\./);
      await checking.first().waitFor();
      await expect(checking.count(), "more than one status text while checking").resolves.toBe(1);
      await audit(page, `polish-login-checking-${name}`);
      answer();
      await page.getByLabel("Date of Birth").waitFor();
      await settled(page);
      const after = await box(heading);
      expect(Math.abs(after.y - before.y), "the form moved when the date of birth field appeared").toBeLessThanOrEqual(1);
      await audit(page, `polish-login-dob-${name}`);
    }
    await page.context().close();
  });

  test("home: the candidates table shows its Position column whole at both widths", async () => {
    const { page } = voter;
    await signIn(page, VOTER.matric, VOTER.dob, "dob");
    for (const [name, size] of SIZES) {
      await atWidth(page, size);
      await page.goto("/");
      const table = page.getByRole("table").filter({ hasText: "S/N" });
      await table.getByRole("cell", { name: WELFARE }).first().waitFor();
      await notClipped(table.getByRole("columnheader", { name: "Position" }));
      await notClipped(table.getByRole("cell", { name: WELFARE }).first());
      await table.scrollIntoViewIfNeeded();
      await audit(page, `polish-home-candidates-${name}`);
    }
  });

  test("the ballot: 'Read manifesto' sits in its candidate's own box; ranked rows are one width, their rank boxes in one column", async () => {
    const { page } = voter;
    for (const [name, size] of SIZES) {
      await atWidth(page, size);
      await page.goto("/vote");
      // A fieldset is as wide as its widest content unless told otherwise: the ranked rows ran past the card.
      await page.getByRole("form", { name: SPORTS }).waitFor();
      await expect(page.evaluate(() => document.documentElement.scrollWidth), "the ballot is wider than the screen").resolves.toBeLessThanOrEqual(size.width);
      for (const position of [WELFARE, SPORTS]) {
        const card = page.getByRole("form", { name: position });
        const buttons = card.getByRole("button", { name: /^Read manifesto: / });
        await buttons.first().waitFor();
        const choices = card.getByTestId("ballot-choice");
        for (const button of await buttons.all()) {
          const who = (await button.getAttribute("aria-label"))!.replace("Read manifesto: ", "");
          // The box holding the button holds its candidate's choice, and no other candidate's.
          const own = choices.filter({
            has: page.getByRole("button", {
              name: `Read manifesto: ${who}`,
              exact: true,
            }),
          });
          await expect(own.count(), `${who}'s manifesto button has no box of its own`).resolves.toBe(1);
          await expect(own.getByText(who, { exact: true }).count()).resolves.toBe(1);
          const [b, o] = [await box(button), await box(own)];
          expect(b.y >= o.y && b.y + b.height <= o.y + o.height + 1, `${who}'s button is outside the box`).toBe(true);
          await notClipped(button);
        }
      }
      const ranked = page.getByRole("form", { name: SPORTS });
      const rows = await ranked.getByRole("listitem").all();
      expect(rows).toHaveLength(3);
      const widths = new Set(await Promise.all(rows.map(async (r) => Math.round((await box(r)).width))));
      expect([...widths], "ranked rows differ in width").toHaveLength(1);
      const selects = await ranked.getByRole("combobox").all();
      const lefts = new Set(await Promise.all(selects.map(async (s) => Math.round((await box(s)).x))));
      expect([...lefts], "rank boxes are not in one column").toHaveLength(1);
      // Each rank box is beside its candidate's name, not wrapped under it.
      for (const [i, row] of rows.entries()) {
        const who = (await selects[i].getAttribute("aria-label"))!.replace("Rank for ", "");
        const [s, n, r] = [await box(selects[i]), await box(row.getByText(who, { exact: true })), await box(row)];
        expect(s.y < n.y + n.height && s.y + s.height > n.y, `${who}'s rank box is not beside the name`).toBe(true);
        expect(s.width, "a rank box is wider than a column").toBeLessThan(r.width / 2);
        await notClipped(selects[i]);
      }
      await ranked.scrollIntoViewIfNeeded();
      await audit(page, `polish-ballot-${name}`);
    }
  });

  test("admin: 'Approve' is whole on Nominations; Edit Position shows its times whole; Create Users drops 'is required' once a field is filled", async () => {
    const { page } = admin;
    for (const [name, size] of SIZES) {
      await atWidth(page, size);
      await page.goto("/admin/nominations");
      const approve = page.getByRole("button", {
        name: `Approve ${APPLICANT.name}`,
      });
      await approve.waitFor();
      await approve.scrollIntoViewIfNeeded();
      await notClipped(approve);
      await notClipped(page.getByRole("button", { name: `Reject ${APPLICANT.name}` }));
      await audit(page, `polish-nominations-${name}`);

      await page.goto("/admin/manage-positions");
      await page.getByRole("button", { name: `Edit ${WELFARE}` }).click();
      const dialog = page.getByRole("dialog", { name: "Edit Position" });
      for (const label of ["Start Time", "End Time"]) {
        const input = dialog.getByLabel(label);
        await input.waitFor();
        // Wide enough for the longest wall-clock value a browser prints ("12/31/2026, 09:37 PM" and its picker icon).
        expect((await box(input)).width, `${label} is too narrow for its value`).toBeGreaterThanOrEqual(240);
      }
      await audit(page, `polish-edit-position-${name}`);
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "detached" });

      await page.goto("/admin/users");
      await page.getByRole("button", { name: "Create User" }).click();
      await page.getByText("Name is required").waitFor();
      const required = await page.getByText(/is required$/).count();
      expect(required).toBeGreaterThan(1);
      await page.getByLabel("Name", { exact: true }).fill("Kemi Alade");
      await expect(page.getByText("Name is required").count()).resolves.toBe(0);
      await expect(page.getByText(/is required$/).count()).resolves.toBe(required - 1);
      await audit(page, `polish-create-users-${name}`);
    }
  });

  test("the audit log prints local readable times, the close's included; a new election's turnout chart starts empty", async () => {
    const voterToken = await api.login(VOTER.matric, {
      dateOfBirth: Number(VOTER.dob),
    });
    const cast = await api.call("/vote", {
      method: "POST",
      token: voterToken,
      headers: { "Idempotency-Key": crypto.randomUUID() },
      body: JSON.stringify({
        positionId: welfareId,
        candidateId: (
          await api.call<{ _id: string; name: string }[]>("/admin/candidates", {
            token: adminToken,
          })
        ).body.find((c) => c.name === "Ife Adu")!._id,
      }),
    });
    expect(cast.status, JSON.stringify(cast.body)).toBe(201);
    expect((await api.post("/admin/election/close", {}, adminToken)).status).toBe(200);
    await expect.poll(async () => (await api.post("/admin/election/declare", {}, adminToken)).status, { timeout: 60_000, interval: 1_000 }).toBe(200);

    const { page } = admin;
    for (const [name, size] of SIZES) {
      await atWidth(page, size);
      await page.goto("/admin/audit");
      const log = page.getByRole("region", { name: "Audit log entries" });
      const close = log.getByRole("row").filter({ hasText: "election.close" });
      await close.waitFor();
      const iso = /\d{4}-\d\d-\d\dT\d\d:\d\d/;
      for (const row of await log.getByRole("row").all()) expect(await row.textContent()).not.toMatch(iso);
      // The close's time as the browser's wall clock prints it (Africa/Lagos: GMT+1).
      await close.getByText(/Closed voting now \(\d{1,2} \w{3} \d{4}, \d\d:\d\d GMT\+1\)/).waitFor();
      await close.locator("time").first().waitFor();
      await log
        .getByRole("row")
        .filter({ hasText: "position.create" })
        .first()
        .getByText(/voting \d{1,2} \w{3} \d{4}, \d\d:\d\d GMT\+1 to/)
        .waitFor();
      // A phone scrolls the table sideways; a laptop shows it whole, summaries included.
      if (size === DESKTOP) for (const column of ["Summary", "Address"]) await notClipped(log.getByRole("columnheader", { name: column }));
      await audit(page, `polish-audit-${name}`);
    }

    // The declared election's ballot is on the chart; the admin starts the next election.
    await atWidth(page, DESKTOP);
    await page.goto("/admin");
    const chart = page.getByRole("figure", { name: "Ballots per hour" });
    const ballots = async () => {
      await chart.getByText("Show as a table").click();
      const cells = await chart.getByRole("row").locator("td:last-child").allTextContents();
      await chart.getByText("Show as a table").click();
      return cells.reduce((sum, n) => sum + Number(n), 0);
    };
    await chart.getByTestId("hourly-chart").waitFor();
    expect(await ballots()).toBe(1);
    await page.getByRole("link", { name: "Start a new election" }).click();
    await page.getByLabel("Election Title").fill("SUG By-Election 2026");
    await page.getByLabel("Start Time").fill(await localDateTime(page, -5 * 60_000));
    await page.getByLabel("End Time").fill(await localDateTime(page, 3 * HOUR));
    await page.getByRole("button", { name: "Start Election" }).click();
    await page.getByRole("dialog", { name: "Start a new election?" }).getByRole("button", { name: "Start Election" }).click();
    await expectToast(page, "New election started");
    await page.waitForURL("**/admin");
    // The first chart drawn is the new election's: never the old one's ballot.
    await chart.getByTestId("hourly-chart").waitFor();
    expect(await ballots()).toBe(0);
    await audit(page, "polish-turnout-new-election-1280");
  });
});
