/**
 * The voter roll in a real browser against the real server: an admin imports a
 * 3-row file with one bad row, sees the error, fixes the file, imports it, finds a voter by
 * search, corrects their date of birth, and that voter signs in with it.
 */
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { ADMIN } from "./support/accounts";
import { audit, openBrowser, signIn, type Browser } from "./support/browser";
import { expectToast, logout } from "./support/steps";

const baseURL = inject("baseURL");
let browser: Browser;

beforeAll(async () => {
  browser = await openBrowser(baseURL);
});
afterAll(async () => {
  await browser?.close();
});

// Matric numbers of their own, so this file never collides with the other suites' voters.
const header = "matricNumber,name,dateOfBirth,email,groups";
const rows = ["2024/5570901,Roll Amaka,20040105,,300L;Software", "2024/5570902,Roll Bayo,2004-01-06,,300L", '2024/5570903,"Roll, Chioma",20040107,,400L'];
const fixed = [rows[0], "2024/5570902,Roll Bayo,20040106,,300L", rows[2]];
const file = (lines: string[]) => ({ name: "roll.csv", mimeType: "text/csv", buffer: Buffer.from([header, ...lines].join("\r\n") + "\r\n") });

describe("voter roll", () => {
  test("import with an error, fix, import, find a voter, correct their date of birth, they sign in", async () => {
    const { page } = browser;
    await signIn(page, ADMIN.matric, ADMIN.password, "password");
    await page.getByRole("link", { name: /Import Voters/ }).first().click();
    await page.waitForURL("**/admin/voters/import");

    // 1. The bad file: one row has a date of birth in the wrong format. Nothing is imported.
    await page.getByLabel("CSV File").setInputFiles(file(rows));
    await page.getByRole("button", { name: "Check File" }).click();
    const errors = page.getByRole("table", { name: "Errors in the file" });
    await errors.waitFor();
    const cells = await errors.getByRole("row").nth(1).getByRole("cell").allTextContents();
    expect(cells).toEqual(["3", "dateOfBirth", "Must be 8 digits in format YYYYMMDD (e.g., 20020515)"]);
    expect(await page.getByRole("button", { name: /^Import \d+ voters?$/ }).count()).toBe(0);
    await audit(page, "import preview with errors");

    // 2. The fixed file: previewed, then imported.
    await page.getByLabel("CSV File").setInputFiles(file(fixed));
    await page.getByRole("button", { name: "Check File" }).click();
    await page.getByRole("button", { name: "Import 3 voters" }).click();
    await expectToast(page, "Voters imported successfully!");
    await page.getByText("Imported 3 rows: 3 new, 0 updated, 0 unchanged.").waitFor();

    // 3. Find the voter by search and correct the date of birth.
    await page.getByRole("link", { name: "Manage Voters" }).first().click();
    await page.waitForURL("**/admin/voters");
    await page.getByLabel("Search").fill("5570902");
    const edit = page.getByRole("button", { name: "Edit Roll Bayo" });
    await edit.waitFor();
    // The search runs once typing pauses: the other voters leave the table.
    await page.getByRole("button", { name: "Edit Roll Amaka" }).waitFor({ state: "detached" });
    expect(await page.getByRole("button", { name: /^Edit / }).count()).toBe(1);
    await audit(page, "manage voters");
    await edit.click();
    const dialog = page.getByRole("dialog", { name: "Edit Voter" });
    await dialog.getByLabel("Date of Birth").fill("20040116");
    await dialog.getByRole("button", { name: "Save Changes" }).click();
    await expectToast(page, "Voter updated successfully!");
    await dialog.waitFor({ state: "detached" });
    await logout(page);

    // 4. The voter signs in with the corrected date of birth.
    await signIn(page, "2024/5570902", "20040116", "dob");
    await page.getByRole("banner").getByText("Welcome, Roll Bayo").waitFor();
    await logout(page);
  });
});
