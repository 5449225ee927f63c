import * as Dialog from "@radix-ui/react-dialog";
import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { chatMessages, type ChatMessage, type UserProfile } from "@evoting/shared";
import type { ChatRoom, ChatSnapshot } from "./chat-room";
import { emptyChat } from "./chat-state";
import { ChatPanel } from "./ChatPanel";

const me: UserProfile = { _id: "me", name: "Chidi", role: "voter", matricNumber: "2021/5570101", email: null, hasPassword: false };
const admin: UserProfile = { ...me, _id: "boss", name: "Officer", role: "admin" };

const message = (id: number, patch: Partial<ChatMessage> = {}): ChatMessage => ({
  id,
  rev: id,
  userId: "other",
  name: "Ngozi",
  role: "voter",
  text: `hello ${id}`,
  createdAt: "2026-03-02T09:00:00.000Z",
  removed: false,
  ...patch,
});

function snapshot(patch: Partial<ChatSnapshot> = {}, messages: ChatMessage[] = []): ChatSnapshot {
  return {
    chat: { ...emptyChat, messages, loaded: true, nextBefore: null },
    connection: "live",
    mutedUntil: null,
    unread: 0,
    arrived: null,
    loadingEarlier: false,
    error: null,
    ...patch,
  };
}

function fakeRoom() {
  return {
    send: vi.fn(async () => null),
    remove: vi.fn(async () => null),
    mute: vi.fn(async () => null),
    loadEarlier: vi.fn(async () => {}),
  } as unknown as ChatRoom & Record<"send" | "remove" | "mute" | "loadEarlier", ReturnType<typeof vi.fn>>;
}

function renderPanel(room: ChatRoom, snap: ChatSnapshot, user = me) {
  return render(
    <Dialog.Root open>
      <Dialog.Content aria-describedby={undefined}>
        <ChatPanel room={room} snapshot={snap} user={user} />
      </Dialog.Content>
    </Dialog.Root>,
  );
}

describe("chat panel", () => {
  it("shows names, marks own messages, renders text as text and removed messages as removed", () => {
    const room = fakeRoom();
    renderPanel(room, snapshot({}, [message(1, { text: "<img src=x onerror=alert(1)>" }), message(2, { userId: "me", name: "Chidi" }), message(3, { removed: true, text: "" })]));
    const items = screen.getAllByTestId("chat-message");
    expect(within(items[0]).getByText("Ngozi")).toBeInTheDocument();
    expect(within(items[0]).getByText("<img src=x onerror=alert(1)>")).toBeInTheDocument();
    expect(document.querySelector("img")).toBeNull();
    expect(within(items[1]).getByText("You")).toBeInTheDocument();
    expect(within(items[2]).getByText(chatMessages.removed)).toBeInTheDocument();
    // Voters get no moderation controls.
    expect(screen.queryByRole("button", { name: /Delete message/ })).toBeNull();
  });

  it("sends with Enter, keeps Shift+Enter for a new line", async () => {
    const room = fakeRoom();
    renderPanel(room, snapshot());
    const input = screen.getByLabelText("Message");
    await userEvent.type(input, "first line{Shift>}{Enter}{/Shift}second");
    expect(room.send).not.toHaveBeenCalled();
    await userEvent.keyboard("{Enter}");
    expect(room.send).toHaveBeenCalledWith("first line\nsecond");
  });

  it("says when the user is muted, and disables sending", () => {
    renderPanel(fakeRoom(), snapshot({ mutedUntil: new Date(Date.now() + 600_000).toISOString() }));
    expect(screen.getByRole("status")).toHaveTextContent(/You are muted by an administrator until/);
    expect(screen.getByLabelText("Message")).toBeDisabled();
    expect(screen.getByRole("button", { name: "Send" })).toBeDisabled();
  });

  it("says when the user is offline", () => {
    vi.spyOn(navigator, "onLine", "get").mockReturnValue(false);
    renderPanel(fakeRoom(), snapshot());
    expect(screen.getByRole("status")).toHaveTextContent(chatMessages.offline);
    expect(screen.getByLabelText("Message")).toBeDisabled();
  });

  it("will not send a message of only invisible or direction characters, and says why", async () => {
    const room = fakeRoom();
    renderPanel(room, snapshot());
    await userEvent.type(screen.getByLabelText("Message"), "\u200B\u202E\u2066{Enter}");
    expect(room.send).not.toHaveBeenCalled();
    expect(screen.getByRole("alert")).toHaveTextContent(chatMessages.invisibleOnly);
    expect(screen.getByRole("button", { name: "Send" })).toBeDisabled();
  });

  it("shows the server's reason when a message is refused", async () => {
    const room = fakeRoom();
    room.send.mockResolvedValueOnce(chatMessages.rateLimited(4));
    renderPanel(room, snapshot());
    await userEvent.type(screen.getByLabelText("Message"), "again{Enter}");
    expect(await screen.findByRole("alert")).toHaveTextContent(chatMessages.rateLimited(4));
  });

  it("gives admins delete and mute controls, and loads earlier pages", async () => {
    const room = fakeRoom();
    renderPanel(room, { ...snapshot({}, [message(5)]), chat: { ...emptyChat, messages: [message(5)], loaded: true, nextBefore: 5 } }, admin);
    await userEvent.click(screen.getByRole("button", { name: "Delete message from Ngozi" }));
    expect(room.remove).toHaveBeenCalledWith(5);
    await userEvent.selectOptions(screen.getByLabelText("Mute Ngozi for"), "60");
    await userEvent.click(screen.getByRole("button", { name: "Mute Ngozi" }));
    expect(room.mute).toHaveBeenCalledWith("other", 60);
    await userEvent.click(screen.getByRole("button", { name: "Load earlier messages" }));
    expect(room.loadEarlier).toHaveBeenCalled();
  });

  it("announces messages that arrive while it is open", () => {
    const room = fakeRoom();
    const { rerender } = renderPanel(room, snapshot({ arrived: message(1) }, [message(1)]));
    expect(screen.getByTestId("chat-announcer")).toHaveTextContent("");
    const later = snapshot({ arrived: message(2, { text: "polls close soon" }) }, [message(1), message(2, { text: "polls close soon" })]);
    rerender(
      <Dialog.Root open>
        <Dialog.Content aria-describedby={undefined}>
          <ChatPanel room={room} snapshot={later} user={me} />
        </Dialog.Content>
      </Dialog.Root>,
    );
    expect(screen.getByTestId("chat-announcer")).toHaveTextContent("Ngozi: polls close soon");
    expect(screen.getByTestId("chat-announcer")).toHaveAttribute("aria-live", "polite");
  });
});
