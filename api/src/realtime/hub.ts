/**
 * The realtime hub: one place that owns every Server-Sent Events subscriber of this process,
 * for every channel (results `ballot-updates`, the chat room). It composes:
 * - sse.ts: frames, encoded once per event, and the sinks a stream's bytes go to;
 * - subscribers.ts: the open streams, indexed by channel, user and session;
 * - results-broadcast.ts: coalesced results snapshots;
 * - change-feeds.ts: numbered feeds (the chat).
 *
 * Hub timers are process-wide (one poll, one heartbeat), never one per subscriber; a
 * disconnect removes the subscriber and nothing else is left behind. The heartbeat comment
 * skips channels that had a broadcast in the last half interval (they are not idle).
 */
import type { ServerResponse } from "node:http";
import { performance } from "node:perf_hooks";
import { silentLogger, type Logger } from "../log.ts";
import { ChangeFeeds, type ChangeFeed } from "./change-feeds.ts";
import { ResultsBroadcast, type ResultsSource, type Scheduler } from "./results-broadcast.ts";
import { HEARTBEAT_FRAME, RETRY_FRAME, openSink, type Sink } from "./sse.ts";
import { Subscribers, type Subscriber } from "./subscribers.ts";

export type { ChangeFeed, ResultsSource };

export interface HubOptions {
  coalesceMs: number;
  heartbeatMs: number;
  pollMs: number;
  /** Unread bytes a subscriber may have queued before it counts as dead. */
  maxBufferedBytes: number;
  /** Streams one user may hold open per channel; a newer one closes the oldest. */
  maxStreamsPerUser: number;
  /** The results coalescer's clock and timer (tests move time by hand). */
  scheduler?: Scheduler;
}

export const HUB_DEFAULTS: HubOptions = {
  coalesceMs: 1_000,
  heartbeatMs: 15_000,
  pollMs: 1_000,
  // ~100 results snapshots: minutes of backlog for a slow phone, bounded for 10,000 streams.
  maxBufferedBytes: 256 * 1024,
  // A phone, a laptop and a few tabs; not 3,000 streams on one sign-in.
  maxStreamsPerUser: 5,
};
export const COALESCE_MS = HUB_DEFAULTS.coalesceMs;
export const HEARTBEAT_MS = HUB_DEFAULTS.heartbeatMs;

export interface OpenOptions {
  signal: AbortSignal;
  /** The Node response, when running under @hono/node-server (`c.env.outgoing`). */
  outgoing?: ServerResponse;
  userId?: string;
  /** The opening session (its token hash), so a logout can end its streams. */
  session?: string;
  /** The subscriber is a voter (results may be withheld from them). */
  voter?: boolean;
  /** Frames sent first (the results snapshot; the chat's missed messages). */
  initial?: () => Promise<Uint8Array[]>;
}

export interface HubStats {
  subscribers: number;
  dropped: number;
  resultsBroadcasts: number;
}

export interface Hub {
  /** A local write changed the results: schedule a coalesced broadcast. */
  resultsChanged(): void;
  /** Registers a numbered feed; returns the call a local write makes to push it out now. */
  addFeed(feed: ChangeFeed): () => void;
  open(channel: string, options: OpenOptions): Response;
  subscriberCount(channel?: string): number;
  broadcast(channel: string, frame: Uint8Array, userId?: string): void;
  /** Ends every stream this process holds for the session (at logout). */
  endSession(session: string): void;
  /** The sessions (token hashes) this process holds a stream for. */
  openSessions(): string[];
  stats(): HubStats;
  close(): void;
}

export function createHub(results: ResultsSource, options: Partial<HubOptions> = {}, log: Logger = silentLogger): Hub {
  const opts: HubOptions = { ...HUB_DEFAULTS, ...options };
  const subscribers = new Subscribers(opts.maxStreamsPerUser);
  const resultsBroadcast = new ResultsBroadcast(results, subscribers, opts.coalesceMs, log, opts.scheduler);
  let closed = false;
  const feeds = new ChangeFeeds(subscribers, () => closed, log);

  const poll = setInterval(() => {
    if (closed) return;
    resultsBroadcast.poll();
    feeds.poll();
  }, opts.pollMs);
  poll.unref();

  // One write per socket costs tens of µs at 10,000 streams: channels that were busy are skipped.
  const heartbeat = setInterval(() => subscribers.toQuietChannels(HEARTBEAT_FRAME, performance.now() - opts.heartbeatMs / 2), opts.heartbeatMs);
  heartbeat.unref();

  /** Sends the retry hint, the initial frames and whatever was broadcast meanwhile, in order. */
  async function start(subscriber: Subscriber, channel: string, initial: OpenOptions["initial"]) {
    let frames: Uint8Array[];
    try {
      frames = (await initial?.()) ?? [];
    } catch (error) {
      log.error({ err: error, channel }, "could not prepare a stream's first frames");
      subscribers.remove(subscriber);
      subscriber.sink.end(true);
      return;
    }
    if (!subscribers.has(subscriber)) return;
    const queued = subscriber.queued ?? [];
    subscriber.queued = null;
    for (const frame of [RETRY_FRAME, ...frames, ...queued]) {
      if (!subscriber.sink.write(frame)) {
        subscribers.drop(subscriber);
        return;
      }
    }
  }

  return {
    resultsChanged: () => resultsBroadcast.changed(),
    addFeed: (feed) => feeds.add(feed),

    open(channel, { signal, outgoing, userId, session, voter, initial }) {
      const subscriber: Subscriber = {
        channel,
        userId: userId ?? null,
        session: session ?? null,
        voter: voter ?? false,
        sink: null as unknown as Sink,
        queued: [],
      };
      const { sink, response } = openSink(outgoing, opts.maxBufferedBytes, () => subscribers.remove(subscriber));
      subscriber.sink = sink;
      signal.addEventListener("abort", () => subscribers.remove(subscriber), { once: true });
      if (closed || signal.aborted) sink.end(false);
      else {
        subscribers.add(subscriber);
        void start(subscriber, channel, initial);
      }
      return response;
    },

    subscriberCount: (channel) => subscribers.count(channel),
    broadcast: (channel, frame, userId) => subscribers.broadcast(channel, frame, userId),
    endSession: (session) => subscribers.endSession(session),
    openSessions: () => subscribers.sessions(),
    stats: () => ({ subscribers: subscribers.count(), dropped: subscribers.dropped, resultsBroadcasts: resultsBroadcast.broadcasts }),

    close() {
      closed = true;
      clearInterval(poll);
      clearInterval(heartbeat);
      resultsBroadcast.close();
      subscribers.endAll();
    },
  };
}
