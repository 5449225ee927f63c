/**
 * The whole election in a real browser: the admin sets it up through the UI, voters sign in by
 * date of birth and vote, a second browser sees the live update, settings change the sign-in
 * method. Each screen is checked with axe and photographed. Steps run in order and build on
 * each other.
 */
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { ADMIN, VOTER, VOTER_2 } from "./support/accounts";
import { audit, openBrowser, signIn, type Browser } from "./support/browser";
import { testPhoto } from "./support/png";
import { serverApi } from "./support/server-api";
import { createCandidate, createPosition, createUser, expectToast, logout } from "./support/steps";

const baseURL = inject("baseURL");
const HOUR = 3_600_000;
let admin: Browser;
let voter: Browser;
let registered = 0;

beforeAll(async () => {
  [admin, voter] = await Promise.all([openBrowser(baseURL), openBrowser(baseURL)]);
  // The live update below is one vote: it reaches the tallies only with a batch of 1.
  const api = serverApi(baseURL);
  await api.setBallotBatch(await api.login(ADMIN.matric, { password: ADMIN.password }), 1);
});
afterAll(async () => {
  await Promise.all([admin?.close(), voter?.close()]);
});

describe("the admin sets up the election", () => {
  test("Admin Panel: welcome, Logout and eight action cards", async () => {
    const { page } = admin;
    await signIn(page, ADMIN.matric, ADMIN.password, "password");
    await page.waitForURL("**/admin");
    await page.getByText(`Welcome back, ${ADMIN.name}`).waitFor();
    await page.getByRole("banner").getByText(`Welcome, ${ADMIN.name}`).waitFor();
    const main = page.getByRole("main");
    for (const label of [
      "Create Users",
      "Create Positions",
      "Create Candidates",
      "Manage Positions",
      "Manage Candidates",
      "Live Results",
      "All Candidates",
      "Settings",
    ]) {
      await main.getByRole("link", { name: new RegExp(`^${label}`) }).waitFor();
    }
    await expect(main.getByRole("button", { name: "Logout" }).count()).resolves.toBe(1);
    const nav = page.getByRole("navigation", { name: "Main" });
    for (const group of ["Administration", "Others"]) await nav.getByText(group, { exact: true }).waitFor();
    await audit(page, "admin-panel");
  });

  test("Create Users: validation, two voters, form reset", async () => {
    const { page } = admin;
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Create Users" }).click();
    await page.getByRole("heading", { name: "Create Users" }).waitFor();
    await page.getByRole("button", { name: "Create User" }).click();
    await page.getByText("Name is required").waitFor();
    await page.getByText("Matriculation number is required").waitFor();
    await page.getByText("Date of birth is required").waitFor();
    await expect(page.getByLabel("Date of Birth").getAttribute("maxlength")).resolves.toBe("8");
    await audit(page, "create-users-errors");

    await createUser(page, VOTER);
    await expect(page.getByLabel("Name", { exact: true }).inputValue()).resolves.toBe("");
    await createUser(page, VOTER_2);
    await audit(page, "create-users");

    await page.getByRole("button", { name: "Back to Admin Panel" }).click();
    await page.waitForURL("**/admin");
  });

  test("Create Positions: an open one, an upcoming one and one to delete", async () => {
    const { page } = admin;
    await page.goto("/admin/positions");
    await page.getByRole("button", { name: "Create Position" }).click();
    await page.getByText("Position title is required").waitFor();
    await page.getByText("Start time is required").waitFor();
    await page.getByText("End time is required").waitFor();

    await createPosition(page, "President", -HOUR, 3 * HOUR);
    await expect(page.getByLabel("Position Title").inputValue()).resolves.toBe("");
    await createPosition(page, "Treasurer", 24 * HOUR, 26 * HOUR);
    await createPosition(page, "Temporary Post", -HOUR, 2 * HOUR);
    await audit(page, "create-positions");
  });

  test("Create Candidates: with a photo (previewed), without one, and throwaways", async () => {
    const { page } = admin;
    await page.goto("/admin/candidates");
    await page.getByRole("heading", { name: "Create Candidates" }).waitFor();
    await page.getByText("Add new candidates to election positions").waitFor();
    await expect(page.getByLabel("Candidate Photo").getAttribute("accept")).resolves.toBe("image/*");
    await page.getByRole("button", { name: "Create Candidate" }).click();
    await page.getByText("Candidate name is required").waitFor();
    await page.getByText("Position is required").waitFor();

    await createCandidate(page, "Amaka Nwosu", "President", testPhoto([79, 70, 229]));
    // Reset after success: name, position and photo are all cleared.
    await expect(page.getByLabel("Candidate Name").inputValue()).resolves.toBe("");
    await expect(page.getByLabel("Position", { exact: true }).inputValue()).resolves.toBe("");
    await expect(page.getByRole("img", { name: "Selected photo preview" }).count()).resolves.toBe(0);
    await createCandidate(page, "Tunde Bakare", "President");
    await createCandidate(page, "Zainab Musa", "Treasurer", testPhoto([22, 163, 74]));
    await createCandidate(page, "Delete Me", "President");
    await createCandidate(page, "Temp Candidate", "Temporary Post");
    await audit(page, "create-candidates");
  });

  test("Manage Candidates: table, dialog cancel/escape/confirm", async () => {
    const { page } = admin;
    await page.goto("/admin/manage-candidates");
    await page.getByRole("heading", { name: "Manage Candidates" }).waitFor();
    for (const h of ["Photo", "Name", "Position", "Actions"]) await page.getByRole("columnheader", { name: h }).waitFor();
    const row = page.getByRole("row", { name: /Amaka Nwosu/ });
    await row.getByText("President").waitFor();
    await expect(row.locator("img").getAttribute("src")).resolves.toMatch(/^\/api\/photos\//);
    await page.getByRole("row", { name: /Tunde Bakare/ }).locator("[data-placeholder-avatar]").waitFor();
    await audit(page, "manage-candidates");

    const trigger = page.getByRole("button", { name: "Delete Delete Me" });
    await trigger.click();
    const dialog = page.getByRole("dialog", { name: "Delete Candidate" });
    await dialog.getByText('Are you sure you want to delete the candidate "Delete Me"?').waitFor();
    await dialog.getByText("This action cannot be undone.").waitFor();
    await audit(page, "manage-candidates-dialog");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "detached" });
    // Focus returns to the button that opened the dialog.
    await expect.poll(() => trigger.evaluate((el) => el === document.activeElement)).toBe(true);

    await trigger.click();
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });

    await trigger.click();
    await dialog.getByRole("button", { name: "Delete Candidate" }).click();
    await expectToast(page, "Candidate deleted successfully!");
    await page.getByRole("row", { name: /Delete Me/ }).waitFor({ state: "detached" });
  });

  test("Manage Positions: statuses, counts, delete dialog", async () => {
    const { page } = admin;
    await page.goto("/admin/manage-positions");
    await page.getByRole("heading", { name: "Manage Positions" }).waitFor();
    for (const h of ["Position Title", "Start Time", "End Time", "Candidates", "Status", "Actions"]) {
      await page.getByRole("columnheader", { name: h }).waitFor();
    }
    const president = page.getByRole("row", { name: /President/ });
    await president.getByRole("cell", { name: "2", exact: true }).waitFor();
    await president.getByText("active").waitFor();
    await page.getByRole("row", { name: /Treasurer/ }).getByText("upcoming").waitFor();
    await audit(page, "manage-positions");

    await page.getByRole("button", { name: "Delete Temporary Post" }).click();
    const dialog = page.getByRole("dialog", { name: "Delete Position" });
    await dialog.getByText('Are you sure you want to delete the position "Temporary Post"?').waitFor();
    await dialog.getByText("All associated candidates (1) will also be deleted.").waitFor();
    await dialog.getByText("This action cannot be undone.").waitFor();
    await audit(page, "manage-positions-dialog");
    await dialog.getByRole("button", { name: "Delete Position" }).click();
    await expectToast(page, "Position deleted successfully!");
    await page.getByRole("row", { name: /Temporary Post/ }).waitFor({ state: "detached" });

    await page.getByRole("button", { name: "Create New Position" }).click();
    await page.waitForURL("**/admin/positions");
    await page.goto("/admin/manage-candidates");
    await page.getByRole("row", { name: /Temp Candidate/ }).waitFor({ state: "detached" });
    await page.getByRole("button", { name: "Create New Candidate" }).click();
    await page.waitForURL("**/admin/candidates");
  });
});

describe("a voter votes", () => {
  test("signs in by date of birth and lands on the home page", async () => {
    const { page } = voter;
    await page.goto("/login");
    await page.getByLabel("Matriculation Number").fill(VOTER.matric);
    await page.getByText("This account uses date of birth authentication").waitFor();
    await page.getByText("Enter your matriculation number and date of birth").waitFor();
    const dob = page.getByLabel("Date of Birth");
    await expect(dob.getAttribute("placeholder")).resolves.toBe("YYYYMMDD");
    await expect(dob.getAttribute("maxlength")).resolves.toBe("8");
    await dob.fill("2003");
    await page.getByRole("button", { name: "Login" }).click();
    await page.getByText("Must be 8 digits in format YYYYMMDD (e.g., 20020515)").waitFor();
    await audit(page, "login-dob");
    await dob.fill(VOTER.dob);
    await page.getByRole("button", { name: "Login" }).click();
    await page.waitForURL((url) => url.pathname === "/");

    await page.getByRole("heading", { name: "Department Elections" }).waitFor();
    await page.getByText("CSC Leadership 2025").waitFor();
    await page.getByTestId("countdown").getByText("ENDED").waitFor();
    const table = page.getByRole("table");
    for (const h of ["S/N", "Name", "Position"]) await table.getByRole("columnheader", { name: h }).waitFor();
    await table.getByRole("row", { name: /Amaka Nwosu/ }).getByText("President").waitFor();
    await table.getByRole("cell", { name: "1.", exact: true }).waitFor();
    await page.getByText("No votes have been cast yet.").waitFor();
    const nav = page.getByRole("navigation", { name: "Main" });
    for (const group of ["Analytics", "Action", "Information", "Others"]) await nav.getByText(group, { exact: true }).waitFor();
    await audit(page, "home");
  });

  test("an admin route sends a voter home", async () => {
    const { page } = voter;
    await page.goto("/admin/users");
    await page.waitForURL((url) => url.pathname === "/");
  });

  test("casts a vote: selected, Vote Cast, locked, Voted", async () => {
    const { page } = voter;
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Vote" }).click();
    await page.getByText("Select a candidate for each position. Your vote is final.").waitFor();
    const card = page.getByRole("form", { name: "President" });
    await card.getByText("Select one candidate for this position").waitFor();
    const cast = card.getByRole("button", { name: "Cast Vote" });
    await expect(cast.isDisabled()).resolves.toBe(true);

    const treasurer = page.getByRole("form", { name: "Treasurer" });
    await treasurer.getByText(/Voting for this position has not started yet\. It opens on .*, \d{2}:\d{2} GMT\+1\./).waitFor();
    // Treasurer has one candidate: an ordinary card, as docs/product.md shows it (Yes/No is a setting, off by default).
    await treasurer.getByText("Select one candidate for this position").waitFor();
    await expect(treasurer.getByRole("radio", { name: "Zainab Musa" }).isDisabled()).resolves.toBe(true);

    const status = page.getByText("Your Voting Status").locator("xpath=ancestor::div[contains(@class,'rounded-2xl')][1]");
    await expect(status.getByText("Pending").count()).resolves.toBe(2);
    await audit(page, "vote");

    await card.getByRole("radio", { name: "Amaka Nwosu" }).check();
    await expect(cast.isEnabled()).resolves.toBe(true);
    await cast.click();
    await card.getByRole("button", { name: "Vote Cast" }).waitFor();
    await card.getByText("✓ Your vote has been recorded").waitFor();
    await expectToast(page, "Vote cast successfully!");
    await expect(card.getByRole("radio", { name: "Amaka Nwosu" }).isChecked()).resolves.toBe(true);
    await expect(card.getByRole("radio", { name: "Tunde Bakare" }).isDisabled()).resolves.toBe(true);
    await status.getByText("Voted", { exact: true }).waitFor();
    await expect(page.getByRole("progressbar").getAttribute("aria-valuenow")).resolves.toBe("1");
    await audit(page, "vote-cast");

    // After a reload the vote still shows as cast: the state comes from the server's list.
    await page.reload();
    await page.getByRole("form", { name: "President" }).getByRole("button", { name: "Vote Cast" }).waitFor();
  });

  test("results show the vote on every tab", async () => {
    const { page } = voter;
    await page.goto("/results");
    await page.getByRole("heading", { name: "Live Election Results" }).waitFor();
    // The mixer applies a ballot to the tallies a moment after the vote is answered: wait for it.
    await page.getByTestId("tile-Votes Cast").getByText("1", { exact: true }).waitFor();
    // Other files may have registered voters on the same server: read the count, then check the maths.
    registered = Number(await page.getByTestId("tile-Registered Voters").textContent());
    expect(registered).toBeGreaterThanOrEqual(2);
    await expect(page.getByTestId("tile-Turnout").textContent()).resolves.toBe(`${((1 / registered) * 100).toFixed(1)}%`);
    await page.getByText("Current Leaders by Position").waitFor();
    await audit(page, "results-overview");

    await page.getByRole("tab", { name: "Top Candidates" }).click();
    await page.getByText("Top Candidates by Vote Count").waitFor();
    await expect(page.getByTestId("top-candidates").locator("[data-rank-colour]").first().getAttribute("data-rank-colour")).resolves.toBe("gold");
    await audit(page, "results-top-candidates");

    await page.getByRole("tab", { name: "Detailed" }).click();
    await page.waitForURL("**/results?tab=detailed");
    // The URL changes before the tab's render (the router renders in a transition): wait for the
    // detailed tile's 2 decimals rather than reading the overview's 1-decimal tile once.
    await page.getByTestId("tile-Turnout").getByText(`${((1 / registered) * 100).toFixed(2)}%`, { exact: true }).waitFor();
    await page.getByText("100.0%").first().waitFor();
    await page.locator("[data-stream=live]").waitFor();
    await audit(page, "results-detailed");
  });
});

describe("live updates", () => {
  test("a second browser on the detailed tab sees the new-vote toast and the new figures", async () => {
    const watcher = admin.page;
    await watcher.goto("/results?tab=detailed");
    await watcher.locator("[data-stream=live]").waitFor();
    await watcher.getByTestId("tile-Votes Cast").getByText("1", { exact: true }).waitFor();

    const { page } = voter;
    await logout(page);
    await signIn(page, VOTER_2.matric, VOTER_2.dob, "dob");
    await page.goto("/vote");
    const card = page.getByRole("form", { name: "President" });
    // Keyboard only: Space picks, an arrow moves the choice within the group, Tab reaches the button.
    await card.getByRole("radio", { name: "Amaka Nwosu" }).focus();
    await page.keyboard.press("Space");
    await page.keyboard.press("ArrowRight");
    await expect(card.getByRole("radio", { name: "Tunde Bakare" }).isChecked()).resolves.toBe(true);
    await page.keyboard.press("Tab");
    await expect(card.getByRole("button", { name: "Cast Vote" }).evaluate((el) => el === document.activeElement)).resolves.toBe(true);
    await page.keyboard.press("Enter");
    await card.getByRole("button", { name: "Vote Cast" }).waitFor();

    await expectToast(watcher, "A new vote has been cast! Results are updating.");
    await watcher.getByTestId("tile-Votes Cast").getByText("2", { exact: true }).waitFor();
    await expect(watcher.getByTestId("tile-Turnout").textContent()).resolves.toBe(`${((2 / registered) * 100).toFixed(2)}%`);
    await expect(watcher.locator("[data-sonner-toast]", { hasText: "A new vote has been cast!" }).count()).resolves.toBe(1);
    await audit(watcher, "results-detailed-live");
  });
});

describe("settings", () => {
  test("email and password; the account then signs in with its password", async () => {
    const { page } = voter;
    await page.goto("/settings");
    await page.getByText("Profile Information").waitFor();
    await expect(page.getByTestId("profile-Name").textContent()).resolves.toBe(VOTER_2.name);
    await expect(page.getByTestId("profile-Matriculation Number").textContent()).resolves.toBe(VOTER_2.matric);
    await page.getByText("No email set").waitFor();
    await expect(page.getByLabel("Current Password").count()).resolves.toBe(0);
    await audit(page, "settings");

    await page.getByLabel("Email").fill("ngozi@gmail.com");
    await page.getByRole("button", { name: "Update Email" }).click();
    await page.getByText("Email must be from @uniport.edu.ng domain").waitFor();
    await page.getByLabel("Email").fill("ngozi.eze@uniport.edu.ng");
    await page.getByRole("button", { name: "Update Email" }).click();
    await expectToast(page, "Email updated successfully");
    await expect(page.getByTestId("profile-Email").textContent()).resolves.toBe("ngozi.eze@uniport.edu.ng");

    await page.getByLabel("New Password").fill("abc");
    await page.getByLabel("Confirm Password").fill("abc");
    await page.getByRole("button", { name: "Update Password" }).click();
    await page.getByText("Password must be at least 6 characters long").waitFor();
    await page.getByLabel("New Password").fill("secret-pass-1");
    await page.getByLabel("Confirm Password").fill("secret-pass-2");
    await page.getByRole("button", { name: "Update Password" }).click();
    await page.getByText("Passwords do not match").waitFor();
    await page.getByLabel("Confirm Password").fill("secret-pass-1");
    // No password yet: the date of birth proves the owner is the one setting it.
    await page.getByLabel("Date of Birth").fill(VOTER_2.dob);
    await page.getByRole("button", { name: "Update Password" }).click();
    await expectToast(page, "Password updated successfully");
    await page.getByLabel("Current Password").waitFor();
    await expect(page.evaluate(() => JSON.parse(localStorage.getItem("user") ?? "{}").hasPassword)).resolves.toBe(true);
    await audit(page, "settings-after");

    await logout(page);
    await page.getByLabel("Matriculation Number").fill(VOTER_2.matric);
    await page.getByText("This account requires password authentication").waitFor();
    await page.getByLabel("Password").fill("secret-pass-1");
    await page.getByRole("button", { name: "Login" }).click();
    await page.waitForURL((url) => url.pathname === "/");
  });

  test("All Candidates page groups by position with placeholders", async () => {
    const { page } = voter;
    await page.goto("/candidates");
    await page.getByRole("heading", { name: "All Candidates", level: 1 }).waitFor();
    await page.getByRole("heading", { name: "President" }).waitFor();
    await page.getByRole("heading", { name: "Treasurer" }).waitFor();
    await page.getByRole("img", { name: "Tunde Bakare (no photo)" }).waitFor();
    await page.getByRole("img", { name: "Amaka Nwosu" }).waitFor();
    await audit(page, "candidates");
  });
});
