/** Small UI steps shared by the browser tests. */
import type { Locator, Page } from "playwright-core";
import { expect } from "vitest";

/** A `datetime-local` value `offsetMs` from now, in the browser's own time zone. */
export function localDateTime(page: Page, offsetMs: number): Promise<string> {
  return page.evaluate((offset) => {
    const d = new Date(Date.now() + offset);
    const p = (n: number) => String(n).padStart(2, "0");
    return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
  }, offsetMs);
}

export async function expectToast(page: Page, text: string) {
  await page.locator("[data-sonner-toast]", { hasText: text }).first().waitFor();
}

export async function logout(page: Page) {
  await page.getByRole("banner").getByRole("button", { name: "Logout" }).click();
  await page.waitForURL("**/login");
}

export async function createUser(page: Page, user: { name: string; matric: string; dob: string }) {
  await page.getByLabel("Name", { exact: true }).fill(user.name);
  await page.getByLabel("Matriculation Number").fill(user.matric);
  await page.getByLabel("Date of Birth").fill(user.dob);
  await page.getByRole("button", { name: "Create User" }).click();
  await expectToast(page, "User created successfully!");
  // The form resets only after success; a toast of the same text may still be on screen.
  await waitForEmpty(page, page.getByLabel("Name", { exact: true }));
}

export async function createPosition(page: Page, title: string, startOffsetMs: number, endOffsetMs: number) {
  await page.getByLabel("Position Title").fill(title);
  await page.getByLabel("Start Time").fill(await localDateTime(page, startOffsetMs));
  await page.getByLabel("End Time").fill(await localDateTime(page, endOffsetMs));
  await page.getByRole("button", { name: "Create Position" }).click();
  await expectToast(page, "Position created successfully!");
  await waitForEmpty(page, page.getByLabel("Position Title"));
}

export async function createCandidate(page: Page, name: string, position: string, photo?: Buffer) {
  await page.getByLabel("Candidate Name").fill(name);
  const select = page.getByLabel("Position", { exact: true });
  await select.locator("option", { hasText: position }).first().waitFor({ state: "attached" });
  await select.selectOption({ label: position });
  if (photo) {
    await page.getByLabel("Candidate Photo").setInputFiles({ name: "photo.png", mimeType: "image/png", buffer: photo });
    await page.getByRole("img", { name: "Selected photo preview" }).waitFor();
  }
  await page.getByRole("button", { name: "Create Candidate" }).click();
  await expectToast(page, "Candidate created successfully!");
  await waitForEmpty(page, page.getByLabel("Candidate Name"));
}

async function waitForEmpty(page: Page, input: Locator) {
  const handle = await input.elementHandle();
  await page.waitForFunction((el) => (el as HTMLInputElement).value === "", handle);
}

export const chatButton = (page: Page) => page.getByRole("button", { name: /^Chat/ });
export const chatPanel = (page: Page) => page.getByRole("dialog", { name: "Election chat" });

/** Opens the chat panel from the top bar and waits for its stream to be live. */
export async function openChat(page: Page) {
  await chatButton(page).click();
  await chatPanel(page).waitFor();
  await chatPanel(page).getByText("Live").waitFor();
}

/** Sends a chat message from the open panel (Enter), and waits for the input to clear. */
export async function say(page: Page, text: string) {
  const input = chatPanel(page).getByLabel("Message", { exact: true });
  await input.fill(text);
  await input.press("Enter");
  await expect.poll(() => input.inputValue()).toBe("");
}
