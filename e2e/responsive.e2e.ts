/** 390 px wide: the sidebar becomes a slide-over drawer; every screen stays usable. */
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { ADMIN } from "./support/accounts";
import { PHONE, audit, openBrowser, signIn, type Browser } from "./support/browser";
import { createUser } from "./support/steps";

const baseURL = inject("baseURL");
const PHONE_VOTER = { name: "Emeka Obi", matric: "2022/5570303", dob: "20040102" };
let phone: Browser;

beforeAll(async () => {
  phone = await openBrowser(baseURL, PHONE);
});
afterAll(async () => {
  await phone?.close();
});

describe("narrow screen", () => {
  test("login, then the admin creates a voter on a phone", async () => {
    const { page } = phone;
    await page.goto("/login");
    await audit(page, "phone-login");
    await signIn(page, ADMIN.matric, ADMIN.password, "password");
    await page.goto("/admin/users");
    await createUser(page, PHONE_VOTER);
    await audit(page, "phone-create-users");
    // The admin's top bar (welcome, status, chat, Admin Panel, Logout) fits the phone's width.
    const banner = page.getByRole("banner");
    await banner.getByText(/^Welcome,/).waitFor();
    for (const name of ["Admin Panel", "Logout"]) {
      const box = await banner.getByRole("button", { name }).boundingBox();
      expect(box, name).not.toBeNull();
      expect(box!.x + box!.width, `${name} is cut off`).toBeLessThanOrEqual(PHONE.width);
    }
    await banner.getByRole("button", { name: "Logout" }).click();
    await page.waitForURL("**/login");
  });

  test("the drawer opens from 'Open menu' and closes on backdrop, Escape and link", async () => {
    const { page } = phone;
    await signIn(page, PHONE_VOTER.matric, PHONE_VOTER.dob, "dob");
    await page.waitForURL((url) => url.pathname === "/");
    const menu = page.getByRole("button", { name: "Open menu" });
    await menu.waitFor();
    // The fixed sidebar is hidden at this width.
    await expect(page.getByRole("navigation", { name: "Main" }).count()).resolves.toBe(0);
    await audit(page, "phone-home");

    await menu.click();
    const drawer = page.getByRole("dialog");
    await drawer.getByRole("link", { name: "Leaderboard" }).waitFor();
    await audit(page, "phone-drawer");
    // The backdrop is the strip to the right of the 16rem panel.
    await page.mouse.click(370, 400);
    await drawer.waitFor({ state: "detached" });

    await menu.click();
    await drawer.waitFor();
    await page.keyboard.press("Escape");
    await drawer.waitFor({ state: "detached" });

    await menu.click();
    await drawer.getByRole("link", { name: "Vote" }).click();
    await page.waitForURL("**/vote");
    await drawer.waitFor({ state: "detached" });
    await page.getByRole("heading", { name: "Cast Your Vote" }).waitFor();
    await audit(page, "phone-vote");
  });

  test("results and settings fit the phone", async () => {
    const { page } = phone;
    for (const [path, name] of [
      ["/results", "phone-results"],
      ["/results?tab=detailed", "phone-results-detailed"],
      ["/candidates", "phone-candidates"],
      ["/settings", "phone-settings"],
    ] as const) {
      await page.goto(path);
      await page.getByRole("heading", { level: 1 }).waitFor();
      await page.waitForLoadState("networkidle").catch(() => undefined);
      // Nothing may force a sideways scroll of the whole page.
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `${path} is wider than the screen`).toBeLessThanOrEqual(0);
      await audit(page, name);
    }
  });
});
