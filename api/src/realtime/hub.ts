/**
 * The realtime hub: one place that owns every Server-Sent Events subscriber, for every
 * channel (results `ballot-updates`, the chat room).
 *
 * - A frame is serialised and encoded once per event; the same bytes go to every subscriber.
 * - Under @hono/node-server the frames go straight to the Node `ServerResponse` (about 3x
 *   lighter and faster than a web ReadableStream per client at 10,000 streams); without one
 *   (tests through `app.request()`) a ReadableStream carries them.
 * - A subscriber whose unread backlog passes `maxBufferedBytes` is cut off at once rather than
 *   waited for; the browser reconnects and is brought up to date (snapshot / Last-Event-ID).
 * - Results are coalesced: however many votes land, a `new-vote` carrying the whole snapshot
 *   goes out at most once per `coalesceMs` (clients need not refetch, and per-vote timing
 *   cannot reveal a known voter's choice).
 * - Other processes may write to the same database. Each `pollMs` the hub reads cheap change
 *   counters (`meta.results_version`, the chat's latest rev) and broadcasts what it has not
 *   sent yet, so a vote or a message through any process reaches every process's watchers.
 * - Hub timers are process-wide (one poll, one heartbeat), never one per subscriber; a
 *   disconnect removes the subscriber and nothing else is left behind. The heartbeat comment
 *   skips channels that had a broadcast in the last half interval (they are not idle).
 *
 * Scheduling uses the monotonic process clock: these are delivery intervals, not business time.
 */
import { silentLogger, type Logger } from "../log.ts";
import type { ServerResponse } from "node:http";
import { performance } from "node:perf_hooks";
import { NEW_VOTE_EVENT, REALTIME_CHANNEL, messages, type Results } from "@evoting/shared";
import { isNodeResponse } from "../http/node-response.ts";

const RESULTS_WITHHELD = messages.resultsHidden;

export interface HubOptions {
  coalesceMs: number;
  heartbeatMs: number;
  pollMs: number;
  /** Unread bytes a subscriber may have queued before it counts as dead. */
  maxBufferedBytes: number;
  /** Streams one user may hold open per channel; a newer one closes the oldest (issue 9). */
  maxStreamsPerUser: number;
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

/** What the hub needs from the results service. */
export interface ResultsSource {
  get(): Promise<Results>;
  version(): Promise<number>;
  /** Told at once when a local write changed the results (ResultsService serves from memory). */
  changed?(): void;
  /** Issue 11: true while 'after-close' visibility withholds tallies from voters. */
  withheldFromVoters?(): Promise<boolean>;
}

/** What a voter's stream carries while results are withheld: the event, never a tally. */
export const withheldFrame = (event: string) => sseFrame(event, { withheld: true, message: RESULTS_WITHHELD });

/**
 * A channel whose changes are numbered (the chat): `head()` is the latest number, cheap to
 * poll; `after(rev)` returns the frames of the changes after `rev` and the number they reach.
 */
export interface ChangeFeed {
  channel: string;
  head(): Promise<number>;
  after(rev: number): Promise<{ frames: Uint8Array[]; rev: number }>;
}

const encoder = new TextEncoder();
const HEARTBEAT_FRAME = encoder.encode(": keep-alive\n\n");
/** Tells EventSource to come back after 3 s if the connection drops. */
const RETRY_FRAME = encoder.encode("retry: 3000\n\n");

export function sseFrame(event: string, data: unknown, id?: string | number): Uint8Array {
  const idLine = id === undefined ? "" : `id: ${id}\n`;
  return encoder.encode(`${idLine}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}

export const SSE_HEADERS = {
  "Content-Type": "text/event-stream; charset=utf-8",
  "Cache-Control": "no-cache, no-transform",
  Connection: "keep-alive",
  "X-Accel-Buffering": "no",
  "X-Content-Type-Options": "nosniff",
} as const;

/** Where a subscriber's bytes go: a Node response or a web stream. */
interface Sink {
  /** False when the subscriber is gone or too far behind. */
  write(chunk: Uint8Array): boolean;
  /** Ends the stream; `abort` cuts it without flushing the backlog. */
  end(abort: boolean): void;
}

interface Subscriber {
  channel: string;
  userId: string | null;
  /** The session the stream was opened under: its logout ends the stream. */
  session: string | null;
  /** A voter: gets `withheldFrame` instead of tallies while results are withheld (issue 11). */
  voter: boolean;
  sink: Sink;
  /** Frames broadcast while the initial frames were still being prepared. */
  queued: Uint8Array[] | null;
}

export interface OpenOptions {
  signal: AbortSignal;
  /** The Node response, when running under @hono/node-server (`c.env.outgoing`). */
  outgoing?: ServerResponse;
  userId?: string;
  /** The opening session (its token hash), so a logout can end its streams. */
  session?: string;
  /** The subscriber is a voter (issue 11: results may be withheld from them). */
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
  stats(): HubStats;
  close(): void;
}

/**
 * Frames go straight to the socket: the response has flushed its headers and sends a
 * close-delimited body (see open()), so there is no framing left for ServerResponse to add,
 * and skipping it saves a cork/uncork tick per subscriber per frame.
 */
function nodeSink(res: ServerResponse, maxBuffered: number): Sink {
  return {
    write(chunk) {
      const socket = res.socket;
      if (!socket || socket.destroyed || !socket.writable || socket.writableLength > maxBuffered) return false;
      socket.write(chunk);
      return true;
    },
    end(abort) {
      if (abort) res.destroy();
      else if (!res.writableEnded) res.end();
    },
  };
}

const STREAM_HIGH_WATER = 16 * 1024;

function streamSink(controller: ReadableStreamDefaultController<Uint8Array>, maxBuffered: number): Sink {
  return {
    write(chunk) {
      // Queued bytes = high-water mark − desiredSize (byte-length strategy, see open()).
      if (STREAM_HIGH_WATER - (controller.desiredSize ?? 0) > maxBuffered) return false;
      try {
        controller.enqueue(chunk);
        return true;
      } catch {
        return false;
      }
    },
    end(abort) {
      try {
        if (abort) controller.error(new Error("subscriber dropped"));
        else controller.close();
      } catch {
        // already closed by the client going away
      }
    },
  };
}

/**
 * Tells @hono/node-server the handler wrote the response itself (its X_ALREADY_SENT header).
 * The server honours that header only on a full web Response: its light Response (what
 * `new Response` makes once it serves) would be written out again ("Cannot write headers
 * after they are sent"). Reading `body` turns the light one into the full one.
 */
const alreadySent = () => {
  const res = new Response(null, { headers: { "x-hono-already-sent": "true" } });
  void res.body;
  return res;
};

export function createHub(results: ResultsSource, options: Partial<HubOptions> = {}, log: Logger = silentLogger): Hub {
  const opts: HubOptions = { ...HUB_DEFAULTS, ...options };
  const subscribers = new Set<Subscriber>();
  const perChannel = new Map<string, number>();
  let closed = false;
  let dropped = 0;
  let resultsBroadcasts = 0;

  // Results: the version last broadcast, when, and the pending/single-flight state.
  let resultsVersion = -1;
  let lastSent = -Infinity;
  let pending: NodeJS.Timeout | null = null;
  let sending = false;
  let again = false;

  const count = (channel: string, delta: number) => perChannel.set(channel, (perChannel.get(channel) ?? 0) + delta);
  /** Each user's open streams per channel, oldest first: the cap's bookkeeping, O(1) per open. */
  const perUser = new Map<string, Subscriber[]>();
  const userKey = (s: Subscriber) => `${s.channel}\u0000${s.userId}`;

  const remove = (s: Subscriber) => {
    if (!subscribers.delete(s)) return;
    count(s.channel, -1);
    if (s.userId === null) return;
    const list = perUser.get(userKey(s));
    const at = list?.indexOf(s) ?? -1;
    if (list && at >= 0) list.splice(at, 1);
    if (list?.length === 0) perUser.delete(userKey(s));
  };

  const add = (s: Subscriber) => {
    subscribers.add(s);
    count(s.channel, 1);
    if (s.userId === null) return;
    const list = perUser.get(userKey(s)) ?? [];
    perUser.set(userKey(s), list);
    list.push(s);
    // Over the cap: the oldest goes (its browser was most likely closed or asleep).
    while (list.length > opts.maxStreamsPerUser) {
      const oldest = list[0];
      remove(oldest);
      oldest.sink.end(false);
    }
  };

  const drop = (s: Subscriber) => {
    remove(s);
    dropped++;
    s.sink.end(true);
  };

  const deliver = (s: Subscriber, frame: Uint8Array) => {
    if (s.queued) s.queued.push(frame);
    else if (!s.sink.write(frame)) drop(s);
  };

  /** When each channel last had a frame for everyone: a busy channel needs no heartbeat. */
  const lastBroadcast = new Map<string, number>();

  const broadcast = (channel: string, frame: Uint8Array, userId?: string) => {
    if (userId === undefined) lastBroadcast.set(channel, performance.now());
    for (const s of subscribers) {
      if (s.channel === channel && (userId === undefined || s.userId === userId)) deliver(s, frame);
    }
  };

  const sendResults = async () => {
    pending = null;
    if (sending) {
      again = true;
      return;
    }
    sending = true;
    lastSent = performance.now();
    try {
      if (closed || !perChannel.get(REALTIME_CHANNEL)) return;
      // Read the counter first: the snapshot is at least this fresh.
      const version = await results.version();
      const snapshot = await results.get();
      const withheld = (await results.withheldFromVoters?.()) ?? false;
      resultsVersion = Math.max(resultsVersion, version);
      resultsBroadcasts++;
      const frame = sseFrame(NEW_VOTE_EVENT, snapshot);
      if (!withheld) broadcast(REALTIME_CHANNEL, frame);
      else {
        lastBroadcast.set(REALTIME_CHANNEL, performance.now());
        const bare = withheldFrame(NEW_VOTE_EVENT);
        for (const s of subscribers) if (s.channel === REALTIME_CHANNEL) deliver(s, s.voter ? bare : frame);
      }
    } catch (error) {
      log.error({ err: error }, "could not broadcast results");
    } finally {
      sending = false;
      if (again) {
        again = false;
        resultsChanged();
      }
    }
  };

  function resultsChanged() {
    results.changed?.();
    if (closed || pending) return;
    const wait = Math.max(0, lastSent + opts.coalesceMs - performance.now());
    pending = setTimeout(() => void sendResults(), wait);
  }

  interface FeedState {
    feed: ChangeFeed;
    rev: number | null;
    ready: Promise<void>;
    syncing: Promise<void> | null;
    again: boolean;
  }
  const feeds: FeedState[] = [];

  /** Broadcasts everything after the feed's last rev; single-flight, re-runs if asked meanwhile. */
  const syncFeed = (state: FeedState): Promise<void> => {
    if (state.syncing) {
      state.again = true;
      return state.syncing;
    }
    state.syncing = (async () => {
      try {
        await state.ready;
        do {
          state.again = false;
          if (!perChannel.get(state.feed.channel)) {
            // Nobody listens: just keep up, so a later subscriber gets no stale backlog.
            state.rev = await state.feed.head();
            continue;
          }
          for (;;) {
            const { frames, rev } = await state.feed.after(state.rev ?? 0);
            for (const frame of frames) broadcast(state.feed.channel, frame);
            if (rev <= (state.rev ?? 0) || frames.length === 0) break;
            state.rev = rev;
          }
        } while (state.again && !closed);
      } catch (error) {
        log.error({ err: error, channel: state.feed.channel }, "could not sync a channel");
      } finally {
        state.syncing = null;
      }
    })();
    return state.syncing;
  };

  const poll = setInterval(() => {
    if (closed) return;
    if (!pending && !sending) {
      const watched = Boolean(perChannel.get(REALTIME_CHANNEL));
      results
        .version()
        .then((v) => {
          if (v === resultsVersion) return;
          // Unwatched, just keep up: a new watcher starts from a fresh snapshot anyway.
          if (watched) resultsChanged();
          else resultsVersion = v;
        })
        .catch((error) => log.error({ err: error }, "could not read the results version"));
    }
    for (const state of feeds) void syncFeed(state);
  }, opts.pollMs);
  poll.unref();

  const heartbeat = setInterval(() => {
    // One write per socket costs tens of µs at 10,000 streams: skip channels that were busy.
    const quietSince = performance.now() - opts.heartbeatMs / 2;
    for (const s of subscribers) {
      if ((lastBroadcast.get(s.channel) ?? -Infinity) < quietSince) deliver(s, HEARTBEAT_FRAME);
    }
  }, opts.heartbeatMs);
  heartbeat.unref();

  return {
    resultsChanged,

    addFeed(feed) {
      const state: FeedState = { feed, rev: null, ready: Promise.resolve(), syncing: null, again: false };
      state.ready = feed
        .head()
        .then((rev) => {
          state.rev = rev;
        })
        .catch(() => {
          state.rev = 0;
        });
      feeds.push(state);
      return () => void syncFeed(state);
    },

    open(channel, { signal, outgoing, userId, session, voter, initial }) {
      const subscriber: Subscriber = {
        channel,
        userId: userId ?? null,
        session: session ?? null,
        voter: voter ?? false,
        sink: null as unknown as Sink,
        queued: [],
      };
      let stream: ReadableStream<Uint8Array> | null = null;

      if (isNodeResponse(outgoing)) {
        // A close-delimited body instead of chunked encoding: each frame is then one plain
        // socket write of the shared bytes, not a chunk header + data + CRLF per subscriber.
        outgoing.removeHeader("Transfer-Encoding");
        outgoing.writeHead(200, { ...SSE_HEADERS, Connection: "close" });
        outgoing.flushHeaders();
        outgoing.socket?.setNoDelay(true);
        subscriber.sink = nodeSink(outgoing, opts.maxBufferedBytes);
        outgoing.on("close", () => remove(subscriber));
      } else {
        stream = new ReadableStream<Uint8Array>(
          {
            start(controller) {
              subscriber.sink = streamSink(controller, opts.maxBufferedBytes);
            },
            cancel() {
              remove(subscriber);
            },
          },
          new ByteLengthQueuingStrategy({ highWaterMark: STREAM_HIGH_WATER }),
        );
      }
      signal.addEventListener("abort", () => remove(subscriber), { once: true });

      if (closed || signal.aborted) {
        subscriber.sink.end(false);
      } else {
        add(subscriber);
        void (async () => {
          let frames: Uint8Array[];
          try {
            frames = (await initial?.()) ?? [];
          } catch (error) {
            log.error({ err: error, channel }, "could not prepare a stream's first frames");
            remove(subscriber);
            subscriber.sink.end(true);
            return;
          }
          if (!subscribers.has(subscriber)) return;
          const queued = subscriber.queued ?? [];
          subscriber.queued = null;
          for (const frame of [RETRY_FRAME, ...frames, ...queued]) {
            if (!subscriber.sink.write(frame)) {
              drop(subscriber);
              return;
            }
          }
        })();
      }

      return stream ? new Response(stream, { headers: SSE_HEADERS }) : alreadySent();
    },

    subscriberCount(channel) {
      return channel ? (perChannel.get(channel) ?? 0) : subscribers.size;
    },

    broadcast,

    endSession(session) {
      for (const s of [...subscribers]) {
        if (s.session !== session) continue;
        remove(s);
        s.sink.end(false);
      }
    },

    stats: () => ({ subscribers: subscribers.size, dropped, resultsBroadcasts }),

    close() {
      closed = true;
      clearInterval(poll);
      clearInterval(heartbeat);
      if (pending) clearTimeout(pending);
      for (const s of [...subscribers]) {
        remove(s);
        s.sink.end(false);
      }
    },
  };
}
