/** One chat room per signed-in user, started while the app shell is mounted. */
import { useEffect, useState, useSyncExternalStore } from "react";
import { chatApi } from "./chat-api";
import { createChatRoom, type ChatRoom, type ChatSnapshot } from "./chat-room";

export function useChatRoom(userId: string): { room: ChatRoom; snapshot: ChatSnapshot } {
  const [room] = useState(() => createChatRoom({ api: chatApi, EventSourceImpl: globalThis.EventSource, selfId: userId }));
  useEffect(() => {
    room.start();
    return () => room.stop();
  }, [room]);
  const snapshot = useSyncExternalStore(room.subscribe, room.get, room.get);
  return { room, snapshot };
}
