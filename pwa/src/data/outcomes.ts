/**
 * One place tells the voter how each queued vote ended (delivered, not needed, refused) and
 * brings the query caches up to date. Started at app start when someone is signed in, or at
 * sign-in; the offline module replays outcomes that settled while the app was closed.
 */
import { toast } from "sonner";
import type { QueryClient } from "@tanstack/react-query";
import { session } from "../auth/session";
import { loadOfflineWhenIdle } from "../offline/app/load";
import { addMyVote, queryKeys } from "./queries";

export function connectOutcomes(client: QueryClient): void {
  let connected = false;
  const connect = () => {
    if (connected || !session.isAuthenticated() || typeof indexedDB === "undefined") return;
    connected = true;
    // The runtime starts in the task after the module's evaluation (two shorter tasks). An
    // outcome that settles before this subscribes stays unseen and is replayed on subscribe.
    void loadOfflineWhenIdle().then(({ getOffline, describeOutcome }) => {
      getOffline().subscribeOutcomes((outcome) => {
        const { tone, message } = describeOutcome(outcome);
        toast[tone](message);
        if (outcome.recordedVote && outcome.status !== "rejected") addMyVote(client, outcome.recordedVote);
        void client.invalidateQueries({ queryKey: queryKeys.myVotes });
        void client.invalidateQueries({ queryKey: queryKeys.results });
      });
    });
  };
  connect();
  if (!connected) {
    const stop = session.subscribe(() => {
      connect();
      if (connected) stop();
    });
  }
}
