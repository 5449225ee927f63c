/**
 * The top bar's chat button (both roles) with the unread count, opening the chat panel as a
 * Radix dialog (focus trapped, Escape closes, focus returns to the button).
 */
import * as Dialog from "@radix-ui/react-dialog";
import { useState } from "react";
import type { UserProfile } from "@evoting/shared";
import { ChatPanel } from "./ChatPanel";
import { useChatRoom } from "./use-chat-room";

export function ChatButton({ user }: { user: UserProfile }) {
  const { room, snapshot } = useChatRoom(user._id);
  const [open, setOpen] = useState(false);
  const unread = snapshot.unread;
  const label = unread > 0 ? `Chat, ${unread} unread message${unread === 1 ? "" : "s"}` : "Chat";

  const onOpenChange = (next: boolean) => {
    if (next) room.start();
    setOpen(next);
    room.setOpen(next);
  };

  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Trigger asChild>
        <button
          type="button"
          aria-label={label}
          title="Election chat"
          // The room connects once the page is idle; someone heading for the button starts it now.
          onPointerEnter={room.start}
          onFocus={room.start}
          className="focus-ring relative rounded-lg p-2 text-slate-700 hover:bg-indigo-50 hover:text-indigo-700"
        >
          <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false" className="size-5" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round">
            <path d="M21 15a2 2 0 0 1-2 2H7l-4 4V5a2 2 0 0 1 2-2h14a2 2 0 0 1 2 2z" />
          </svg>
          {unread > 0 && (
            <span
              aria-hidden="true"
              data-testid="chat-unread"
              className="absolute -right-1 -top-1 min-w-5 rounded-full bg-red-600 px-1.5 text-center text-xs font-bold leading-5 text-white"
            >
              {unread >= 99 ? "99+" : unread}
            </span>
          )}
        </button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-slate-900/40" />
        <Dialog.Content
          aria-describedby={undefined}
          className="fixed inset-y-0 right-0 z-50 flex w-full max-w-md flex-col bg-white shadow-2xl focus:outline-none"
        >
          <ChatPanel room={room} snapshot={snapshot} user={user} />
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
