/**
 * Live results over Server-Sent Events (docs/architecture.md, Contracts): fetch a short-lived stream
 * token, open the 'ballot-updates' channel, apply each snapshot to the results query and
 * announce each 'new-vote'. On failure it reconnects with a fresh token after a pause.
 */
import { useEffect, useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import { NEW_VOTE_EVENT, REALTIME_CHANNEL, messages, type Results } from "@evoting/shared";
import { api, realtimeUrl } from "../api/client";
import { setResults } from "./queries";

/** One id for every new-vote toast, so a burst replaces the toast instead of stacking them. */
export const NEW_VOTE_TOAST_ID = "new-vote";
const RECONNECT_MS = 3_000;

export type StreamState = "connecting" | "live" | "reconnecting";

export function useResultsStream(enabled: boolean): StreamState {
  const client = useQueryClient();
  const [state, setState] = useState<StreamState>("connecting");

  useEffect(() => {
    if (!enabled || typeof EventSource === "undefined") return;
    let source: EventSource | null = null;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;

    const apply = (event: MessageEvent<string>) => {
      try {
        const data = JSON.parse(event.data) as Results | { withheld: true };
        // While results are withheld from voters the stream carries no tallies.
        if ("withheld" in data) return;
        setResults(client, data);
      } catch {
        // A malformed frame: the 30 s refetch will catch up.
      }
    };

    const connect = async () => {
      try {
        const { token } = await api.realtimeToken();
        if (stopped) return;
        source = new EventSource(realtimeUrl(REALTIME_CHANNEL, token));
        source.addEventListener("open", () => setState("live"));
        source.addEventListener("snapshot", apply as EventListener);
        source.addEventListener(NEW_VOTE_EVENT, ((event: MessageEvent<string>) => {
          apply(event);
          toast.info(messages.newVoteToast, { id: NEW_VOTE_TOAST_ID });
        }) as EventListener);
        source.addEventListener("error", () => {
          // The token is single-use and short-lived: reconnect with a new one, not the old URL.
          source?.close();
          scheduleReconnect();
        });
      } catch {
        scheduleReconnect();
      }
    };

    const scheduleReconnect = () => {
      if (stopped) return;
      setState("reconnecting");
      clearTimeout(retry);
      retry = setTimeout(() => void connect(), RECONNECT_MS);
    };

    setState("connecting");
    void connect();
    return () => {
      stopped = true;
      clearTimeout(retry);
      source?.close();
    };
  }, [enabled, client]);

  return state;
}
