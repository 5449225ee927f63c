/**
 * Every open stream of this process, indexed so that a broadcast touches only its audience:
 * by channel, by (channel, user) for a frame meant for one user, and by session for a logout.
 * Nothing here scans the subscribers of another channel.
 *
 * A subscriber that cannot take a frame (gone, or its backlog too large) is dropped at once;
 * its browser reconnects and is brought up to date. One user holds at most `maxPerUser`
 * streams per channel: a newer one closes the oldest.
 */
import { performance } from "node:perf_hooks";
import type { Sink } from "./sse.ts";

export interface Subscriber {
  channel: string;
  userId: string | null;
  /** The session the stream was opened under: its logout ends the stream. */
  session: string | null;
  /** A voter: gets the withheld frame instead of tallies while results are withheld. */
  voter: boolean;
  sink: Sink;
  /** Frames broadcast while the initial frames were still being prepared. */
  queued: Uint8Array[] | null;
}

const userKey = (channel: string, userId: string) => `${channel}\u0000${userId}`;

/** Adds `item` to the set under `key`, making the set on first use. */
function addTo<K, V>(index: Map<K, Set<V>>, key: K, item: V): void {
  let set = index.get(key);
  if (!set) index.set(key, (set = new Set()));
  set.add(item);
}

/** Removes `item` from the set under `key`, and the set once empty. */
function removeFrom<K, V>(index: Map<K, Set<V>>, key: K, item: V): void {
  const set = index.get(key);
  if (!set) return;
  set.delete(item);
  if (set.size === 0) index.delete(key);
}

export class Subscribers {
  private readonly byChannel = new Map<string, Set<Subscriber>>();
  /** Each user's streams per channel, in the order they opened (a Set keeps insertion order). */
  private readonly byUser = new Map<string, Set<Subscriber>>();
  private readonly bySession = new Map<string, Set<Subscriber>>();
  /** When each channel last had a frame for everyone: a busy channel needs no heartbeat. */
  private readonly lastBroadcast = new Map<string, number>();
  private total = 0;
  dropped = 0;

  constructor(private readonly maxPerUser: number) {}

  count(channel?: string): number {
    return channel === undefined ? this.total : (this.byChannel.get(channel)?.size ?? 0);
  }

  has(s: Subscriber): boolean {
    return this.byChannel.get(s.channel)?.has(s) ?? false;
  }

  add(s: Subscriber): void {
    addTo(this.byChannel, s.channel, s);
    this.total++;
    if (s.session !== null) addTo(this.bySession, s.session, s);
    if (s.userId === null) return;
    const key = userKey(s.channel, s.userId);
    addTo(this.byUser, key, s);
    // Over the cap: the oldest goes (its browser was most likely closed or asleep).
    for (const oldest of this.byUser.get(key) ?? []) {
      if ((this.byUser.get(key)?.size ?? 0) <= this.maxPerUser) break;
      this.end(oldest);
    }
  }

  remove(s: Subscriber): void {
    if (!this.has(s)) return;
    removeFrom(this.byChannel, s.channel, s);
    this.total--;
    if (s.session !== null) removeFrom(this.bySession, s.session, s);
    if (s.userId !== null) removeFrom(this.byUser, userKey(s.channel, s.userId), s);
  }

  /** Removes the subscriber and ends its stream, flushing what it has queued. */
  end(s: Subscriber): void {
    this.remove(s);
    s.sink.end(false);
  }

  /** Removes the subscriber and cuts its stream (it could not keep up). */
  drop(s: Subscriber): void {
    this.remove(s);
    this.dropped++;
    s.sink.end(true);
  }

  deliver(s: Subscriber, frame: Uint8Array): void {
    if (s.queued) s.queued.push(frame);
    else if (!s.sink.write(frame)) this.drop(s);
  }

  /** One frame to everyone on the channel, or to one user's streams on it. */
  broadcast(channel: string, frame: Uint8Array, userId?: string): void {
    if (userId === undefined) this.lastBroadcast.set(channel, performance.now());
    const audience = userId === undefined ? this.byChannel.get(channel) : this.byUser.get(userKey(channel, userId));
    // A copy: a dropped subscriber leaves the set while it is walked.
    for (const s of [...(audience ?? [])]) this.deliver(s, frame);
  }

  /** One frame to the channel's voters and another to everyone else on it. */
  broadcastSplit(channel: string, forVoters: Uint8Array, forOthers: Uint8Array): void {
    this.lastBroadcast.set(channel, performance.now());
    for (const s of [...(this.byChannel.get(channel) ?? [])]) this.deliver(s, s.voter ? forVoters : forOthers);
  }

  /** `frame` to every channel without a broadcast since `quietSince` (a heartbeat). */
  toQuietChannels(frame: Uint8Array, quietSince: number): void {
    for (const [channel, set] of this.byChannel) {
      if ((this.lastBroadcast.get(channel) ?? -Infinity) >= quietSince) continue;
      for (const s of [...set]) this.deliver(s, frame);
    }
  }

  /** The sessions (token hashes) holding an open stream. */
  sessions(): string[] {
    return [...this.bySession.keys()];
  }

  endSession(session: string): void {
    for (const s of [...(this.bySession.get(session) ?? [])]) this.end(s);
  }

  endAll(): void {
    for (const set of [...this.byChannel.values()]) for (const s of [...set]) this.end(s);
  }
}
