/**
 * The realtime hub: one place that owns every Server-Sent Events subscriber. A frame is
 * serialised and encoded once per event and the same bytes are written to every subscriber.
 * Results are coalesced: however many votes land, each subscriber gets at most one
 * `new-vote` per COALESCE_MS, carrying the whole snapshot (clients need not refetch, and
 * per-vote timing does not reveal a known voter's choice). Idle streams get a comment line
 * every HEARTBEAT_MS. A subscriber whose buffer backs up is dropped, not waited for.
 */
import { NEW_VOTE_EVENT, REALTIME_CHANNEL } from "@evoting/shared";
import type { ResultsService } from "../services/results.ts";

export const COALESCE_MS = 1_000;
export const HEARTBEAT_MS = 15_000;
/** Bytes a subscriber may have unread before it counts as dead. */
const MAX_BUFFERED = 1024 * 1024;

const encoder = new TextEncoder();

export function sseFrame(event: string, data: unknown, id?: string | number): Uint8Array {
  const idLine = id === undefined ? "" : `id: ${id}\n`;
  return encoder.encode(`${idLine}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}

export interface Subscriber {
  channel: string;
  controller: ReadableStreamDefaultController<Uint8Array>;
}

export interface Hub {
  /** A local write changed the results: schedule a coalesced broadcast. */
  resultsChanged(): void;
  /** Opens a stream on a channel; `initial` frames are sent first. */
  open(channel: string, signal: AbortSignal, initial?: () => Promise<Uint8Array[]>): Response;
  subscriberCount(channel?: string): number;
  broadcast(channel: string, frame: Uint8Array): void;
  close(): void;
}

export function createHub(results: ResultsService): Hub {
  const subscribers = new Set<Subscriber>();
  let lastSent = 0;
  let pending: NodeJS.Timeout | null = null;
  let closed = false;

  const drop = (s: Subscriber) => {
    subscribers.delete(s);
    try {
      s.controller.close();
    } catch {
      // already closed by the client going away
    }
  };

  const broadcast = (channel: string, frame: Uint8Array) => {
    for (const s of subscribers) {
      if (s.channel !== channel) continue;
      if ((s.controller.desiredSize ?? 0) < -MAX_BUFFERED) {
        drop(s);
        continue;
      }
      try {
        s.controller.enqueue(frame);
      } catch {
        drop(s);
      }
    }
  };

  const sendResults = async () => {
    pending = null;
    lastSent = Date.now();
    if (closed || ![...subscribers].some((s) => s.channel === REALTIME_CHANNEL)) return;
    try {
      broadcast(REALTIME_CHANNEL, sseFrame(NEW_VOTE_EVENT, await results.get()));
    } catch (error) {
      console.error("Could not broadcast results", error);
    }
  };

  const heartbeat = setInterval(() => {
    const ping = encoder.encode(": keep-alive\n\n");
    for (const s of subscribers) {
      try {
        s.controller.enqueue(ping);
      } catch {
        drop(s);
      }
    }
  }, HEARTBEAT_MS);
  heartbeat.unref();

  return {
    resultsChanged() {
      if (closed || pending) return;
      const wait = Math.max(0, lastSent + COALESCE_MS - Date.now());
      pending = setTimeout(() => void sendResults(), wait);
    },

    open(channel, signal, initial) {
      let subscriber: Subscriber | null = null;
      const stream = new ReadableStream<Uint8Array>({
        async start(controller) {
          subscriber = { channel, controller };
          // Tell EventSource to come back after 3 s if the connection drops.
          controller.enqueue(encoder.encode("retry: 3000\n\n"));
          for (const frame of (await initial?.()) ?? []) controller.enqueue(frame);
          if (signal.aborted || closed) {
            drop(subscriber);
            return;
          }
          subscribers.add(subscriber);
        },
        cancel() {
          if (subscriber) subscribers.delete(subscriber);
        },
      });
      signal.addEventListener("abort", () => subscriber && drop(subscriber), { once: true });
      return new Response(stream, {
        headers: {
          "Content-Type": "text/event-stream; charset=utf-8",
          "Cache-Control": "no-cache, no-transform",
          Connection: "keep-alive",
          "X-Accel-Buffering": "no",
        },
      });
    },

    subscriberCount(channel) {
      return channel ? [...subscribers].filter((s) => s.channel === channel).length : subscribers.size;
    },

    broadcast,

    close() {
      closed = true;
      clearInterval(heartbeat);
      if (pending) clearTimeout(pending);
      for (const s of [...subscribers]) drop(s);
    },
  };
}
