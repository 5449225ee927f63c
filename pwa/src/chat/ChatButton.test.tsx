import { act, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { beforeEach, describe, expect, test, vi } from "vitest";
import type { UserProfile } from "@evoting/shared";
import { json, mockFetch } from "../test/fetch-mock";
import { ChatButton } from "./ChatButton";

const me: UserProfile = { _id: "me", name: "Chidi", role: "voter", matricNumber: "2021/5570101", email: null, hasPassword: false };
const later = new Date(Date.now() + 15 * 60_000).toISOString();

let idle: (() => void)[] = [];
beforeEach(() => {
  idle = [];
  vi.stubGlobal("requestIdleCallback", (callback: () => void) => idle.push(callback));
  vi.stubGlobal("cancelIdleCallback", () => {});
});

function chatServer() {
  return mockFetch({
    "GET /api/vote/chat-token": () => json({ token: "chat-1", expiresAt: later }),
    "GET /api/chat/status": () => json({ mutedUntil: null }),
    "GET /api/chat/messages": () => json({ messages: [], nextBefore: null }),
  });
}

describe("chat button", () => {
  test("the chat makes no requests at first render; it starts once the page is idle", async () => {
    const fetch = chatServer();
    render(<ChatButton user={me} />);
    expect(screen.getByRole("button", { name: "Chat" })).toBeInTheDocument();
    expect(fetch).not.toHaveBeenCalled();

    act(() => idle.forEach((run) => run()));
    await waitFor(() => expect(fetch).toHaveBeenCalled());
  });

  test("focusing the button starts the chat without waiting for idle", async () => {
    const fetch = chatServer();
    render(<ChatButton user={me} />);
    fireEvent.focus(screen.getByRole("button", { name: "Chat" }));
    await waitFor(() => expect(fetch).toHaveBeenCalled());
    expect(idle).toHaveLength(1);
  });
});
