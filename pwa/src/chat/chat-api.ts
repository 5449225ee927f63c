/** The chat's API calls, through the app's one API client (auth, error bodies, 401 handling). */
import type { ChatMessage, ChatMuteResponse, ChatPage, ChatStatus } from "@evoting/shared";
import { API_BASE, api, request } from "../api/client";

export const chatApi = {
  token: api.chatToken,
  page: (before?: number) => request<ChatPage>(`/chat/messages${before ? `?before=${before}` : ""}`),
  post: (text: string) => request<ChatMessage>("/chat/messages", { method: "POST", body: { text } }),
  remove: (id: number) => request<ChatMessage>(`/chat/messages/${id}`, { method: "DELETE" }),
  status: () => request<ChatStatus>("/chat/status"),
  mute: (userId: string, minutes: number) => request<ChatMuteResponse>("/chat/mutes", { method: "POST", body: { userId, minutes } }),
  unmute: (userId: string) => request<ChatMuteResponse>(`/chat/mutes/${encodeURIComponent(userId)}`, { method: "DELETE" }),
};

/** The chat stream's address; `lastEventId` resumes after a reconnect with a renewed token. */
export function chatStreamUrl(token: string, lastEventId: number | null): string {
  const params = new URLSearchParams({ token });
  if (lastEventId !== null) params.set("lastEventId", String(lastEventId));
  return `${API_BASE}/chat/stream?${params.toString()}`;
}
