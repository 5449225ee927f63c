/**
 * One chat room per signed-in user while the app shell is mounted. Its network work (token,
 * status, history, live stream) waits until the page is idle after load, or starts at once
 * when the chat button is first hovered, focused or opened, so it adds nothing to the first
 * render's blocking time; from then on the unread count stays live.
 */
import { useEffect, useState, useSyncExternalStore } from "react";
import { whenPageIdle } from "../lib/page-idle";
import { chatApi } from "./chat-api";
import { createChatRoom, type ChatRoom, type ChatSnapshot } from "./chat-room";

export function useChatRoom(userId: string): { room: ChatRoom; snapshot: ChatSnapshot } {
  const [room] = useState(() => createChatRoom({ api: chatApi, EventSourceImpl: globalThis.EventSource, selfId: userId }));
  useEffect(() => {
    const cancel = whenPageIdle(() => room.start());
    return () => {
      cancel();
      room.stop();
    };
  }, [room]);
  const snapshot = useSyncExternalStore(room.subscribe, room.get, room.get);
  return { room, snapshot };
}
