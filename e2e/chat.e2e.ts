/**
 * The election chat in two browsers against the real server: a voter and an
 * administrator chat live, the admin removes a message and mutes the voter, and the voter's
 * browser shows both at once.
 */
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { ADMIN } from "./support/accounts";
import { audit, openBrowser, signIn, type Browser } from "./support/browser";
import { chatButton, chatPanel, openChat, say } from "./support/steps";

const baseURL = inject("baseURL");
/** This file's own voter, so it does not depend on (or disturb) the other files' accounts. */
const CHATTER = { name: "Emeka Obi", matric: "2022/5570777", dob: "20040102" };

let admin: Browser;
let voter: Browser;

async function createChatter() {
  const login = await fetch(`${baseURL}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ matricNumber: ADMIN.matric, password: ADMIN.password }),
  });
  const { token } = (await login.json()) as { token: string };
  const res = await fetch(`${baseURL}/api/admin/users`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify({ name: CHATTER.name, matricNumber: CHATTER.matric, dateOfBirth: Number(CHATTER.dob) }),
  });
  expect([201, 409]).toContain(res.status);
}

const panel = chatPanel;

beforeAll(async () => {
  await createChatter();
  [admin, voter] = await Promise.all([openBrowser(baseURL), openBrowser(baseURL)]);
  await signIn(admin.page, ADMIN.matric, ADMIN.password, "password");
  await signIn(voter.page, CHATTER.matric, CHATTER.dob, "dob");
});
afterAll(async () => {
  await Promise.all([admin?.close(), voter?.close()]);
});

describe("chat", () => {
  test("two browsers chat live; own messages are marked; unread counts show on the button", async () => {
    await openChat(admin.page);
    await openChat(voter.page);

    await say(voter.page, "Is the polling station in the CS building open?");
    const atAdmin = panel(admin.page).getByTestId("chat-message").filter({ hasText: "Is the polling station" });
    await atAdmin.waitFor();
    await expect(atAdmin.getByText(CHATTER.name, { exact: true }).count()).resolves.toBe(1);
    const atVoter = panel(voter.page).getByTestId("chat-message").filter({ hasText: "Is the polling station" });
    await expect(atVoter.getByText("You", { exact: true }).count()).resolves.toBe(1);
    // New messages from others are announced politely.
    await expect.poll(() => admin.page.getByTestId("chat-announcer").textContent()).toContain("Is the polling station");

    // The voter closes the panel; the admin's answer shows as unread on the button.
    await voter.page.keyboard.press("Escape");
    await panel(voter.page).waitFor({ state: "detached" });
    await say(admin.page, "Yes, until 14:00. <b>Bring your ID</b>");
    await chatButton(voter.page).and(voter.page.getByRole("button", { name: "Chat, 1 unread message" })).waitFor();
    await openChat(voter.page);
    // Plain text: the markup shows as typed, nothing is rendered as HTML.
    await panel(voter.page).getByText("Yes, until 14:00. <b>Bring your ID</b>", { exact: true }).waitFor();
    await expect(panel(voter.page).locator("b").count()).resolves.toBe(0);
    await audit(voter.page, "chat-panel");
    // Opening the panel read everything: the badge is gone once it closes.
    await voter.page.keyboard.press("Escape");
    await expect(chatButton(voter.page).getAttribute("aria-label")).resolves.toBe("Chat");
    await openChat(voter.page);
  });

  test("an admin removes a message and the other browser sees it removed", async () => {
    await say(voter.page, "Vote for my cousin or else");
    const atAdmin = panel(admin.page).getByTestId("chat-message").filter({ hasText: "Vote for my cousin" });
    await atAdmin.waitFor();
    await atAdmin.getByRole("button", { name: `Delete message from ${CHATTER.name}` }).click();

    const removed = "Message removed by an administrator";
    await panel(voter.page).getByText(removed).waitFor();
    await expect(panel(voter.page).getByText("Vote for my cousin").count()).resolves.toBe(0);
    await panel(admin.page).getByText(removed).waitFor();
  });

  test("a muted voter is told until when and cannot send", async () => {
    const last = panel(admin.page).getByTestId("chat-message").filter({ hasText: "Is the polling station" });
    await last.getByLabel(`Mute ${CHATTER.name} for`).selectOption("15");
    await last.getByRole("button", { name: `Mute ${CHATTER.name}` }).click();
    await last.getByText(`${CHATTER.name} is muted`).waitFor();

    await panel(voter.page).getByText(/You are muted by an administrator until \d{2}:\d{2}/).waitFor();
    await expect(panel(voter.page).getByLabel("Message", { exact: true }).isDisabled()).resolves.toBe(true);
    await expect(panel(voter.page).getByRole("button", { name: "Send" }).isDisabled()).resolves.toBe(true);
  });
});
