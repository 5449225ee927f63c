/**
 * The chat panel: title, connection state, the message list with "Load earlier", and the
 * composer. New messages from others are announced politely through a live region that only
 * ever holds the latest arrival (history loads are not read out).
 */
import * as Dialog from "@radix-ui/react-dialog";
import { useEffect, useLayoutEffect, useRef, useState } from "react";
import { chatMessages, type UserProfile } from "@evoting/shared";
import { Icon } from "../components/ui/Icon";
import { buttonClass } from "../components/ui/Button";
import type { ChatRoom, ChatSnapshot } from "./chat-room";
import { ChatComposer } from "./ChatComposer";
import { ChatMessageItem } from "./ChatMessageItem";

interface ChatPanelProps {
  room: ChatRoom;
  snapshot: ChatSnapshot;
  user: UserProfile;
}

export function ChatPanel({ room, snapshot, user }: ChatPanelProps) {
  const { chat, connection, arrived } = snapshot;
  const listRef = useRef<HTMLDivElement>(null);
  const stickToBottom = useRef(true);
  const previousFirstId = useRef<number | undefined>(undefined);
  const previousHeight = useRef(0);
  const [announcement, setAnnouncement] = useState("");

  // Keep the newest message in view unless the reader scrolled up; keep the place on "Load earlier".
  useLayoutEffect(() => {
    const list = listRef.current;
    if (!list) return;
    const firstId = chat.messages[0]?.id;
    if (previousFirstId.current !== undefined && firstId !== undefined && firstId < previousFirstId.current) {
      list.scrollTop += list.scrollHeight - previousHeight.current;
    } else if (stickToBottom.current) {
      list.scrollTop = list.scrollHeight;
    }
    previousFirstId.current = firstId;
    previousHeight.current = list.scrollHeight;
  }, [chat.messages]);

  // Announce what arrives while the panel is open, not what came before it opened.
  const arrivedBeforeOpen = useRef(arrived);
  useEffect(() => {
    if (arrived && arrived !== arrivedBeforeOpen.current) setAnnouncement(`${arrived.name}: ${arrived.text}`);
  }, [arrived]);

  const isAdmin = user.role === "admin";

  return (
    <>
      <header className="flex items-center gap-3 border-b border-slate-200 px-4 py-3">
        <div className="min-w-0 flex-1">
          <Dialog.Title className="text-lg font-semibold text-slate-900">Election chat</Dialog.Title>
          <p className="text-xs text-slate-600">
            {connection === "live" ? "Live" : connection === "connecting" ? "Connecting…" : "Reconnecting…"}
          </p>
        </div>
        <Dialog.Close asChild>
          <button type="button" aria-label="Close chat" className="focus-ring rounded-lg p-2 text-slate-700 hover:bg-slate-100">
            <Icon name="close" />
          </button>
        </Dialog.Close>
      </header>

      <div
        ref={listRef}
        className="flex-1 overflow-y-auto px-4 py-3"
        onScroll={(e) => {
          const el = e.currentTarget;
          stickToBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
        }}
      >
        {chat.nextBefore !== null && (
          <div className="mb-3 flex justify-center">
            <button
              type="button"
              className={buttonClass("secondary", "sm")}
              disabled={snapshot.loadingEarlier}
              onClick={() => void room.loadEarlier()}
            >
              {snapshot.loadingEarlier ? "Loading..." : "Load earlier messages"}
            </button>
          </div>
        )}
        {!chat.loaded && !snapshot.error && <p className="py-8 text-center text-sm text-slate-600">Loading chat...</p>}
        {chat.loaded && chat.messages.length === 0 && (
          <p className="py-8 text-center text-sm text-slate-600">No messages yet. Say hello!</p>
        )}
        {snapshot.error && (
          <p role="alert" className="py-2 text-center text-sm text-red-700">
            {snapshot.error || chatMessages.loadFailed}
          </p>
        )}
        <ol aria-label="Chat messages" className="space-y-3">
          {chat.messages.map((m) => (
            <ChatMessageItem key={m.id} message={m} own={m.userId === user._id} isAdmin={isAdmin} room={room} />
          ))}
        </ol>
      </div>

      <div aria-live="polite" aria-atomic="true" className="sr-only" data-testid="chat-announcer">
        {announcement}
      </div>

      <ChatComposer room={room} mutedUntil={snapshot.mutedUntil} />
    </>
  );
}
