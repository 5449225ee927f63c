/**
 * A TCP relay that shapes every connection through it like a slow mobile link: one shared
 * downlink and uplink of fixed bandwidth, and half the round trip added each way. It sits
 * between the browser and the server so that the service worker's own downloads (the
 * precache) are shaped too: Chromium's DevTools network emulation applies to the page's
 * requests, not to those its service worker makes.
 */
import { connect, createServer, type Socket } from "node:net";
import type { AddressInfo } from "node:net";

export interface LinkProfile {
  downKbps: number;
  upKbps: number;
  rttMs: number;
}

/** Lighthouse's mobile throttling ("slow 4G"): 1.6 Mbps down, 750 kbps up, 150 ms RTT. */
export const SLOW_MOBILE: LinkProfile = { downKbps: 1_600, upKbps: 750, rttMs: 150 };

export interface Shaper {
  url: string;
  /** Bytes sent down to the browser so far. */
  downBytes(): number;
  close(): Promise<void>;
}

/** One direction of the link: chunks leave in order, each after the link is free and the delay has passed. */
function link(kbps: number, delayMs: number) {
  const bytesPerMs = (kbps * 1000) / 8 / 1000;
  let freeAt = 0;
  return (bytes: number, after: number): number => {
    const start = Math.max(performance.now(), freeAt);
    freeAt = start + bytes / bytesPerMs;
    return Math.max(after, freeAt + delayMs);
  };
}

/** Relays `from` to `to` through `schedule`, strictly in order (one queue per direction, one timer). */
function pipeShaped(from: Socket, to: Socket, schedule: (bytes: number, after: number) => number, count: (n: number) => void) {
  const queue: { at: number; chunk: Buffer | null }[] = [];
  let last = 0;
  let timer: NodeJS.Timeout | null = null;
  const pump = () => {
    timer = null;
    const now = performance.now();
    while (queue.length > 0 && queue[0].at <= now) {
      const { chunk } = queue.shift()!;
      if (chunk === null) to.end();
      else if (!to.destroyed) {
        to.write(chunk);
        count(chunk.length);
      }
    }
    if (queue.length > 0) timer = setTimeout(pump, Math.max(0, queue[0].at - now));
  };
  const push = (at: number, chunk: Buffer | null) => {
    queue.push({ at, chunk });
    if (!timer) timer = setTimeout(pump, Math.max(0, queue[0].at - performance.now()));
  };
  from.on("data", (chunk: Buffer) => {
    last = schedule(chunk.length, last);
    push(last, chunk);
  });
  from.on("end", () => push(last, null));
}

export async function startShaper(target: string, profile: LinkProfile = SLOW_MOBILE): Promise<Shaper> {
  const { hostname, port } = new URL(target);
  const down = link(profile.downKbps, profile.rttMs / 2);
  const up = link(profile.upKbps, profile.rttMs / 2);
  const open = new Set<Socket>();
  let downBytes = 0;
  const server = createServer((client) => {
    const upstream = connect(Number(port), hostname);
    // Either side ending ends both.
    const pair = [client, upstream];
    for (const socket of pair) {
      open.add(socket);
      socket.once("close", () => pair.forEach((s) => (s.destroy(), open.delete(s)))).on("error", () => socket.destroy());
    }
    pipeShaped(client, upstream, up, () => {});
    pipeShaped(upstream, client, down, (n) => (downBytes += n));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    downBytes: () => downBytes,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
