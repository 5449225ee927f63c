/**
 * The message input. Enter sends, Shift+Enter starts a new line. It says why sending is off
 * (offline, muted until a time) and shows the server's reason when a message is refused
 * (rate limit, mute).
 */
import { useEffect, useId, useState, type FormEvent, type KeyboardEvent } from "react";
import { CHAT_MAX_LENGTH, chatMessages, hasVisibleText } from "@evoting/shared";
import { buttonClass } from "../components/ui/Button";
import type { ChatRoom } from "./chat-room";
import { useOnline } from "../hooks/use-online";
import { onFirstUse } from "../lib/format";

const clock = onFirstUse(() => new Intl.DateTimeFormat(undefined, { hour: "2-digit", minute: "2-digit" }));

/** True while `until` is in the future; flips back by itself when the mute runs out. */
function useMuted(until: string | null): boolean {
  const [now, setNow] = useState(() => Date.now());
  const end = until ? Date.parse(until) : 0;
  useEffect(() => {
    if (!end || end <= Date.now()) return;
    const timer = setTimeout(() => setNow(Date.now()), Math.min(end - Date.now() + 50, 2 ** 31 - 1));
    return () => clearTimeout(timer);
  }, [end]);
  return end > now;
}

export function ChatComposer({ room, mutedUntil }: { room: ChatRoom; mutedUntil: string | null }) {
  const [text, setText] = useState("");
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const online = useOnline();
  const muted = useMuted(mutedUntil);
  const inputId = useId();
  const noteId = useId();

  const note = !online
    ? chatMessages.offline
    : muted && mutedUntil
      ? `You are muted by an administrator until ${clock().format(new Date(mutedUntil))}.`
      : null;
  const trimmed = text.trim();
  // Only invisible or direction characters: the server refuses it, so say why before sending.
  const invisibleOnly = trimmed.length > 0 && !hasVisibleText(trimmed);
  const canSend = online && !muted && !sending && trimmed.length > 0 && !invisibleOnly && trimmed.length <= CHAT_MAX_LENGTH;

  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    if (!canSend) return;
    setSending(true);
    const refused = await room.send(trimmed);
    setSending(false);
    setError(refused);
    if (!refused) setText("");
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void submit();
    }
  };

  return (
    <form onSubmit={(e) => void submit(e)} className="border-t border-slate-200 px-4 py-3">
      <label htmlFor={inputId} className="text-sm font-medium text-slate-800">
        Message
      </label>
      {note && (
        <p id={noteId} role="status" className="mt-1 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900">
          {note}
        </p>
      )}
      <textarea
        id={inputId}
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          if (error) setError(null);
        }}
        onKeyDown={onKeyDown}
        rows={2}
        maxLength={CHAT_MAX_LENGTH + 50}
        disabled={!online || muted}
        aria-describedby={note ? noteId : undefined}
        aria-invalid={trimmed.length > CHAT_MAX_LENGTH || invisibleOnly || undefined}
        placeholder={note ? undefined : "Write a message (Enter to send, Shift+Enter for a new line)"}
        className="focus-ring mt-1 block w-full resize-none rounded-lg border border-slate-300 px-3 py-2 text-sm disabled:bg-slate-100"
      />
      {(error ?? invisibleOnly) && (
        <p role="alert" className="mt-1 text-sm text-red-700">
          {error ?? chatMessages.invisibleOnly}
        </p>
      )}
      <div className="mt-2 flex items-center justify-between gap-2">
        <span className={trimmed.length > CHAT_MAX_LENGTH ? "text-xs font-semibold text-red-700" : "text-xs text-slate-600"}>
          {trimmed.length}/{CHAT_MAX_LENGTH}
        </span>
        <button type="submit" className={buttonClass("primary", "sm")} disabled={!canSend}>
          {sending ? "Sending..." : "Send"}
        </button>
      </div>
    </form>
  );
}
