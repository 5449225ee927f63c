/**
 * One chat message: author, time, text (always rendered as text, never HTML), the user's own
 * messages set apart, and for admins the delete and mute controls.
 */
import { useId, useState } from "react";
import { chatMessages, type ChatMessage } from "@evoting/shared";
import { cx } from "../lib/cx";
import type { ChatRoom } from "./chat-room";
import { onFirstUse } from "../lib/format";

const time = onFirstUse(() => new Intl.DateTimeFormat(undefined, { hour: "2-digit", minute: "2-digit" }));
const fullTime = onFirstUse(() => new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" }));

export const MUTE_CHOICES = [
  { minutes: 5, label: "5 minutes" },
  { minutes: 15, label: "15 minutes" },
  { minutes: 60, label: "1 hour" },
  { minutes: 24 * 60, label: "1 day" },
] as const;

interface Props {
  message: ChatMessage;
  own: boolean;
  isAdmin: boolean;
  room: ChatRoom;
}

export function ChatMessageItem({ message, own, isAdmin, room }: Props) {
  const [busy, setBusy] = useState(false);
  const [feedback, setFeedback] = useState<string | null>(null);
  const [muteMinutes, setMuteMinutes] = useState<number>(MUTE_CHOICES[1].minutes);
  const muteId = useId();
  const created = new Date(message.createdAt);

  const act = async (run: () => Promise<string | null>, done: string) => {
    setBusy(true);
    const error = await run();
    setBusy(false);
    setFeedback(error ?? done);
  };

  return (
    <li className={cx("flex flex-col", own ? "items-end" : "items-start")} data-testid="chat-message" data-message-id={message.id}>
      <div className="flex items-baseline gap-2 text-xs text-slate-600">
        <span className="font-semibold text-slate-800">{own ? "You" : message.name}</span>
        {message.role === "admin" && <span className="rounded bg-amber-100 px-1 font-semibold text-amber-900">Admin</span>}
        <time dateTime={message.createdAt} title={fullTime().format(created)}>
          {time().format(created)}
        </time>
      </div>
      <p
        className={cx(
          "mt-1 max-w-[85%] whitespace-pre-wrap break-words rounded-2xl px-3 py-2 text-sm",
          message.removed
            ? "border border-dashed border-slate-300 bg-white italic text-slate-600"
            : own
              ? "bg-indigo-600 text-white"
              : "bg-slate-100 text-slate-900",
        )}
      >
        {message.removed ? chatMessages.removed : message.text}
      </p>
      {isAdmin && !message.removed && (
        <div className="mt-1 flex flex-wrap items-center gap-2 text-xs">
          <button
            type="button"
            disabled={busy}
            className="focus-ring rounded px-1.5 py-0.5 font-semibold text-red-700 hover:bg-red-50 disabled:text-slate-400"
            aria-label={`Delete message from ${message.name}`}
            onClick={() => void act(() => room.remove(message.id), "Message removed")}
          >
            Delete
          </button>
          {message.role !== "admin" && (
            <>
              <label htmlFor={muteId} className="sr-only">
                Mute {message.name} for
              </label>
              <select
                id={muteId}
                value={muteMinutes}
                onChange={(e) => setMuteMinutes(Number(e.target.value))}
                className="focus-ring rounded border border-slate-300 bg-white px-1 py-0.5 text-slate-800"
              >
                {MUTE_CHOICES.map((c) => (
                  <option key={c.minutes} value={c.minutes}>
                    {c.label}
                  </option>
                ))}
              </select>
              <button
                type="button"
                disabled={busy}
                className="focus-ring rounded px-1.5 py-0.5 font-semibold text-amber-800 hover:bg-amber-50 disabled:text-slate-400"
                aria-label={`Mute ${message.name}`}
                onClick={() => void act(() => room.mute(message.userId, muteMinutes), `${message.name} is muted`)}
              >
                Mute
              </button>
            </>
          )}
          {feedback && (
            <span role="status" className="text-slate-600">
              {feedback}
            </span>
          )}
        </div>
      )}
    </li>
  );
}
