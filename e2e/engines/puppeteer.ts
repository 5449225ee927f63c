/**
 * Chromium (CDP) and Firefox (WebDriver BiDi) through puppeteer-core, with Debian's browsers
 * and a fresh profile each time. Neither needs a driver binary: puppeteer speaks to the
 * browser itself, so nothing is downloaded (Debian ships no geckodriver).
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import puppeteer, { type Browser, type ElementHandle, type Page } from "puppeteer-core";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../support/chromium-flags";
import { findSource, limit, type EngineDriver } from "./driver";
import type { Query } from "./find";

async function launch(engine: "chromium" | "firefox", profile: string): Promise<Browser> {
  if (engine === "chromium") {
    return puppeteer.launch({
      browser: "chrome",
      executablePath: CHROMIUM_PATH,
      headless: true,
      userDataDir: profile,
      args: CHROMIUM_ARGS,
      protocolTimeout: 30_000,
    });
  }
  return puppeteer.launch({
    browser: "firefox",
    executablePath: process.env.FIREFOX_PATH ?? "/usr/bin/firefox-esr",
    headless: true,
    userDataDir: profile,
    protocolTimeout: 30_000,
    extraPrefsFirefox: {
      "browser.shell.checkDefaultBrowser": false,
      "datareporting.policy.dataSubmissionEnabled": false,
    },
  });
}

export async function openPuppeteer(engine: "chromium" | "firefox", profiles: string, viewport: { width: number; height: number }): Promise<EngineDriver> {
  mkdirSync(profiles, { recursive: true });
  const profile = mkdtempSync(join(profiles, `${engine}-`));
  // A launch that hangs is abandoned and tried once more with a fresh profile.
  let browser: Browser;
  try {
    browser = await limit(`${engine} launch`, 45_000, launch(engine, profile));
  } catch {
    browser = await limit(`${engine} launch (retry)`, 45_000, launch(engine, profile));
  }
  const page: Page = (await browser.pages())[0] ?? (await browser.newPage());
  // A reload with a vote waiting asks 'Leave site?': the tests mean to leave.
  page.on("dialog", (dialog) => void (dialog.type() === "beforeunload" ? dialog.accept() : dialog.dismiss()).catch(() => undefined));
  await page.setViewport({ ...viewport, isMobile: true, hasTouch: true, deviceScaleFactor: 1 });
  if (engine === "chromium") {
    // Axe-free, but the driver's own evaluations must not be refused by the app's CSP.
    await page.setBypassCSP(true);
    // A Nigerian university: times as its students see them.
    await page.emulateTimezone("Africa/Lagos");
  }

  const element = async (query: Query): Promise<ElementHandle<Element> | null> => {
    const handle = await page.evaluateHandle(findSource(query));
    const el = handle.asElement() as ElementHandle<Element> | null;
    if (!el) await handle.dispose();
    return el;
  };

  return {
    async goto(url) {
      await page.goto(url, { waitUntil: "load" });
    },
    async reload() {
      await page.reload({ waitUntil: "load" });
    },
    async url() {
      return page.url();
    },
    evaluate(expression) {
      return page.evaluate(expression);
    },
    async click(query) {
      const el = await element(query);
      if (!el) return false;
      try {
        await el.click();
      } finally {
        await el.dispose();
      }
      return true;
    },
    async type(query, text) {
      const el = await element(query);
      if (!el) return false;
      try {
        await el.evaluate((input) => {
          (input as HTMLInputElement).select?.();
        });
        await el.click({ count: 3 });
        await page.keyboard.press("Backspace");
        await el.type(text);
      } finally {
        await el.dispose();
      }
      return true;
    },
    async close() {
      await browser.close().catch(() => browser.process()?.kill("SIGKILL"));
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
