/** Chromium through playwright-core, a fresh profile per browser, plus axe and screenshots. */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import { expect } from "vitest";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "./chromium-flags";

const require = createRequire(import.meta.url);
const AXE_PATH = require.resolve("axe-core/axe.min.js");
const here = fileURLToPath(new URL(".", import.meta.url));
const SCREENSHOTS = join(here, "..", "screenshots");
const PROFILES = join(here, "..", ".tmp");

export interface Browser {
  context: BrowserContext;
  page: Page;
  close: () => Promise<void>;
}

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

export async function openBrowser(baseURL: string, viewport = DESKTOP): Promise<Browser> {
  mkdirSync(PROFILES, { recursive: true });
  const profile = mkdtempSync(join(PROFILES, "profile-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
    baseURL,
    // The app serves a strict CSP; axe is injected as a script tag for audits only.
    bypassCSP: true,
    viewport,
    locale: "en-GB",
    // A Nigerian university: show times as its students see them.
    timezoneId: "Africa/Lagos",
  });
  context.setDefaultTimeout(15_000);
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

/** Runs axe-core on the page; returns serious and critical violations only. */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  const hasAxe = await page.evaluate(() => "axe" in window);
  if (!hasAxe) await page.addScriptTag({ path: AXE_PATH });
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: AxeViolation[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ["violations"] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target, failureSummary: n.failureSummary })),
    }));
  });
  return violations.filter((v) => v.impact === "serious" || v.impact === "critical");
}

/**
 * Waits for the page's steady state: every animation and transition that ends (a toast sliding
 * in, a dialog opening) has ended, and the frame after it is drawn. Spinners and other endless
 * animations are not waited for. Nothing is waited for when nothing moves.
 */
export async function settled(page: Page) {
  await page.evaluate(async () => {
    const ending = () =>
      document.getAnimations().filter((a) => a.playState === "running" && a.effect?.getComputedTiming().endTime !== Infinity);
    // An animation that ends may start the next (a toast stack moving up): a few rounds at most.
    for (let round = 0, running = ending(); round < 5 && running.length > 0; round++, running = ending()) {
      await Promise.all(running.map((a) => a.finished.catch(() => undefined)));
    }
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  });
}

/** Saves a full-page screenshot and asserts axe finds nothing serious or critical. */
export async function audit(page: Page, name: string) {
  // The screenshot shows the steady state, not a toast or dialog halfway in.
  await settled(page);
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
  const violations = await seriousViolations(page);
  expect(violations, `${name}: ${JSON.stringify(violations, null, 2)}`).toEqual([]);
}

/** Signs in through the login form (password or date of birth, whichever the account uses). */
export async function signIn(page: Page, matric: string, secret: string, method: "password" | "dob") {
  await page.goto("/login");
  await page.getByLabel("Matriculation Number").fill(matric);
  const field = page.getByLabel(method === "password" ? "Password" : "Date of Birth");
  await field.waitFor();
  await field.fill(secret);
  await page.getByRole("button", { name: "Login" }).click();
  await page.waitForURL((url) => url.pathname !== "/login");
}
