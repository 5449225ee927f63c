/**
 * Accountability in a real browser against the real server: a voter's vote shows
 * its receipt on the card and in 'Your Voting Status'; an observer signs in by password,
 * lands on a read-only Admin Panel, reads the Audit Log, cannot open a write page, and opens
 * the printable results sheet, whose CSV digest matches a recomputation over the export's
 * bytes and which prints without navigation.
 */
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { ADMIN } from "./support/accounts";
import { audit, openBrowser, signIn, type Browser } from "./support/browser";
import { logout } from "./support/steps";

const baseURL = inject("baseURL");
let browser: Browser;

// Accounts of their own, so this file never collides with the other suites'.
const OBSERVER = { name: "Olu Observer", matric: "2024/5570951", password: "observer-e2e-1" };
const VOTER = { name: "Receipt Rita", matric: "2024/5570952", dob: "20040301" };

async function api<T>(path: string, init: { method?: string; token?: string; json?: unknown; form?: FormData } = {}): Promise<T> {
  const headers: Record<string, string> = {};
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  if (init.json !== undefined) headers["content-type"] = "application/json";
  const res = await fetch(`${baseURL}/api${path}`, {
    method: init.method ?? "GET",
    headers,
    body: init.form ?? (init.json !== undefined ? JSON.stringify(init.json) : undefined),
  });
  if (!res.ok) throw new Error(`${init.method ?? "GET"} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

const login = async (matricNumber: string, secret: { password?: string; dateOfBirth?: number }) =>
  (await api<{ token: string }>("/auth/login", { method: "POST", json: { matricNumber, ...secret } })).token;

beforeAll(async () => {
  const admin = await login(ADMIN.matric, { password: ADMIN.password });
  await api("/admin/users", { method: "POST", token: admin, json: { name: OBSERVER.name, matricNumber: OBSERVER.matric, role: "observer", password: OBSERVER.password } });
  await api("/admin/users", { method: "POST", token: admin, json: { name: VOTER.name, matricNumber: VOTER.matric, dateOfBirth: Number(VOTER.dob) } });
  const position = await api<{ _id: string }>("/admin/positions", {
    method: "POST",
    token: admin,
    json: { title: "Receipts Officer", startTime: new Date(Date.now() - 3_600_000).toISOString(), endTime: new Date(Date.now() + 3_600_000).toISOString() },
  });
  for (const name of ["Kemi Ade", "Musa Bello"]) {
    const form = new FormData();
    form.set("name", name);
    form.set("positionId", position._id);
    await api("/admin/candidates", { method: "POST", token: admin, form });
  }
  browser = await openBrowser(baseURL);
});
afterAll(async () => {
  await browser?.close();
});

describe("accountability", () => {
  test("a counted vote shows its receipt on the card and in Your Voting Status", async () => {
    const { page } = browser;
    await signIn(page, VOTER.matric, VOTER.dob, "dob");
    await page.goto("/vote");
    const card = page.getByRole("form", { name: "Receipts Officer" });
    await card.getByRole("radio", { name: "Kemi Ade" }).check();
    await card.getByRole("button", { name: "Cast Vote" }).click();
    const receipt = card.getByTestId("receipt");
    await receipt.waitFor();
    const code = (await receipt.locator("code").textContent()) ?? "";
    expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{10}$/);
    const status = page.getByText("Your Voting Status").locator("xpath=ancestor::div[contains(@class,'rounded-2xl')][1]");
    await status.getByText(code).waitFor();
    // The same code after a reload: my-votes recomputes it from the sealed ballot id.
    await page.reload();
    await page.getByRole("form", { name: "Receipts Officer" }).getByTestId("receipt").getByText(code).waitFor();
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Counted Ballots" }).click();
    await page.waitForURL("**/receipts");
    await page.getByRole("heading", { name: "Counted Ballots" }).waitFor();
    await audit(page, "counted ballots");
    await logout(page);
  });

  test("an observer sees a read-only panel, the audit log, and no write page", async () => {
    const { page } = browser;
    await signIn(page, OBSERVER.matric, OBSERVER.password, "password");
    await page.waitForURL((url) => url.pathname === "/admin");
    await page.getByText(/You are observing/).waitFor();
    expect(await page.getByRole("link", { name: /Create Users/ }).count()).toBe(0);
    const nav = page.getByRole("navigation", { name: "Main" });
    expect(await nav.getByRole("link", { name: "Create Positions" }).count()).toBe(0);
    await page.getByRole("figure", { name: "Ballots per hour" }).waitFor(); // the turnout chart's own chunk loaded
    await audit(page, "observer admin panel");

    await nav.getByRole("link", { name: "Audit Log" }).click();
    await page.waitForURL("**/admin/audit");
    // The observer's own sign-in is the newest entry.
    const firstRow = page.getByRole("row").nth(1);
    await firstRow.getByText("auth.login", { exact: true }).waitFor();
    await firstRow.getByText(OBSERVER.matric, { exact: true }).waitFor();
    await page.getByRole("button", { name: "Export CSV" }).waitFor();
    const chain = page.getByTestId("chain-status");
    await chain.waitFor();
    expect(await chain.textContent()).toMatch(/^Chain intact: \d+ entries, head [0-9a-f]{64}$/);
    await audit(page, "audit log");

    await page.goto("/admin/manage-candidates");
    await page.getByRole("heading", { name: "Manage Candidates" }).waitFor();
    await page.getByText("Kemi Ade").first().waitFor();
    expect(await page.getByRole("button", { name: /^Delete / }).count()).toBe(0);
    expect(await page.getByRole("button", { name: "Create New Candidate" }).count()).toBe(0);

    await page.goto("/admin/users");
    await page.waitForURL((url) => url.pathname === "/admin");
  });

  test("the printable sheet's CSV digest matches the export, and it prints without navigation", async () => {
    const { page } = browser;
    await page.goto("/admin/results/print");
    const digest = (await page.getByTestId("csv-digest").textContent()) ?? "";
    const token = await page.evaluate(() => localStorage.getItem("authToken"));
    const csv = await (await fetch(`${baseURL}/api/admin/results.csv`, { headers: { authorization: `Bearer ${token}` } })).arrayBuffer();
    expect(digest).toBe(createHash("sha256").update(Buffer.from(csv)).digest("hex"));
    expect(Buffer.from(csv).toString("utf8")).toContain("Receipts Officer,Kemi Ade,");
    const head = (await page.getByTestId("audit-head").textContent()) ?? "";
    expect(head).toMatch(/^[0-9a-f]{64}$/);
    await page.getByRole("heading", { name: "Receipts Officer" }).waitFor();
    await audit(page, "results sheet");

    expect(await page.getByRole("navigation", { name: "Main" }).count()).toBe(0);
    await page.emulateMedia({ media: "print" });
    await expect(page.getByRole("button", { name: "Print" }).isVisible()).resolves.toBe(false);
    await page.emulateMedia({ media: "screen" });
  });
});
