/** Route guards and the login form's states, against the real server. */
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { ADMIN } from "./support/accounts";
import { audit, openBrowser, signIn, type Browser } from "./support/browser";

const baseURL = inject("baseURL");
let browser: Browser;

beforeAll(async () => {
  browser = await openBrowser(baseURL);
});
afterAll(async () => {
  await browser?.close();
});

describe("guards", () => {
  test.each(["/", "/vote", "/results", "/candidates", "/settings", "/admin", "/admin/users", "/admin/manage-candidates"])(
    "%s sends a signed-out visitor to /login",
    async (path) => {
      const { page } = browser;
      await page.goto(path);
      await page.waitForURL("**/login");
      await page.getByRole("button", { name: "Login" }).waitFor();
    },
  );

  test("the redirect replaces the history entry", async () => {
    const { page } = browser;
    await page.goto("/login");
    await page.getByRole("button", { name: "Login" }).waitFor();
    const before = await page.evaluate(() => history.length);
    // A client-side visit to a protected route: one new entry, replaced by /login, not two.
    await page.evaluate(() => {
      history.pushState({}, "", "/vote");
      dispatchEvent(new PopStateEvent("popstate", { state: {} }));
    });
    await page.waitForURL("**/login");
    await page.getByRole("button", { name: "Login" }).waitFor();
    expect(await page.evaluate(() => history.length)).toBe(before + 1);
    await page.goBack();
    await page.waitForURL("**/login");
  });
});

describe("weight", () => {
  test("a first visit to /login downloads at most 150 KB of compressed JavaScript", async () => {
    const fresh = await openBrowser(baseURL);
    try {
      const scripts: Promise<number>[] = [];
      fresh.page.on("requestfinished", (request) => {
        if (request.resourceType() === "script") scripts.push(request.sizes().then((s) => s.responseBodySize));
      });
      await fresh.page.goto("/login", { waitUntil: "networkidle" });
      await fresh.page.getByRole("button", { name: "Login" }).waitFor();
      const bytes = (await Promise.all(scripts)).reduce((a, b) => a + b, 0);
      console.log(`/login initial JS over the wire: ${(bytes / 1024).toFixed(1)} KB`);
      expect(bytes).toBeGreaterThan(0);
      expect(bytes / 1024).toBeLessThanOrEqual(150);
    } finally {
      await fresh.close();
    }
  });
});

describe("login form", () => {
  test("shows docs/product.md's states for an unknown, malformed and password account", async () => {
    const { page } = browser;
    await page.goto("/login");
    await audit(page, "login");
    const matric = page.getByLabel("Matriculation Number");
    const login = page.getByRole("button", { name: "Login" });
    await expect(login.isDisabled()).resolves.toBe(true);

    await matric.fill("12/34");
    await matric.blur();
    await page.getByText("Must be in format YYYY/5570XXX (e.g., 2020/5570123)").waitFor();

    await matric.fill("1999/5570999");
    await page.getByText("User not found").waitFor();
    await expect(login.isDisabled()).resolves.toBe(true);

    await matric.fill(ADMIN.matric);
    await page.getByLabel("Password").waitFor();
    await page.getByText("This account requires password authentication").waitFor();
    await page.getByText("Enter your matriculation number and password").waitFor();
    await expect(login.isEnabled()).resolves.toBe(true);
    await audit(page, "login-password");

    await login.click();
    await page.getByText("Password is required").waitFor();

    await page.getByLabel("Password").fill("wrong-password");
    await login.click();
    // A refused sign-in shows the server's message (or the fallback) and stays on /login.
    await page.locator("[data-sonner-toast]").first().waitFor();
    expect(new URL(page.url()).pathname).toBe("/login");
  });

  test("an admin lands on /admin, and / sends an admin to /admin", async () => {
    const { page } = browser;
    await signIn(page, ADMIN.matric, ADMIN.password, "password");
    expect(new URL(page.url()).pathname).toBe("/admin");
    await page.getByText("Login successful!").waitFor();
    await page.goto("/");
    await page.waitForURL("**/admin");
    // Signed in, /login has nothing to offer: it goes home.
    await page.goto("/login");
    await page.waitForURL("**/admin");
    await page.getByRole("button", { name: "Logout" }).first().click();
    await page.waitForURL("**/login");
    expect(await page.evaluate(() => [localStorage.getItem("authToken"), localStorage.getItem("user")])).toEqual([null, null]);
  });

  test("a stored session the API no longer accepts (401) signs out to /login", async () => {
    const { page } = browser;
    await signIn(page, ADMIN.matric, ADMIN.password, "password");
    await page.evaluate(() => localStorage.setItem("authToken", "revoked-or-forged-token"));
    await page.goto("/admin/manage-positions");
    await page.waitForURL("**/login");
    expect(await page.evaluate(() => localStorage.getItem("authToken"))).toBeNull();
  });
});
