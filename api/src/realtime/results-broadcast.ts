/**
 * The results channel's broadcasts. However many votes land, a `new-vote` carrying the whole
 * snapshot goes out at most once per `coalesceMs` (clients need not refetch, and per-vote
 * timing cannot reveal a known voter's choice). While results are withheld from voters
 * (after-close visibility), voters get the event without tallies.
 *
 * Other processes may write to the same database: `poll()` reads the cheap results counter
 * and broadcasts a snapshot this process has not sent yet.
 *
 * Scheduling uses the monotonic process clock by default (these are delivery intervals, not
 * business time); a test hands in its own `Scheduler` and moves time by hand.
 */
import { performance } from "node:perf_hooks";
import type { Logger } from "../log.ts";
import { NEW_VOTE_EVENT, REALTIME_CHANNEL, type Results } from "@evoting/shared";
import { sseFrame, withheldFrame } from "./sse.ts";
import type { Subscribers } from "./subscribers.ts";

/** What the hub needs from the results service. */
export interface ResultsSource {
  get(): Promise<Results>;
  version(): Promise<number>;
  /** Told at once when a local write changed the results (ResultsService serves from memory). */
  changed?(): void;
  /** True while 'after-close' visibility withholds tallies from voters. */
  withheldFromVoters?(): Promise<boolean>;
}

/** Where the coalescer reads the time and sets its timer. */
export interface Scheduler {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const processScheduler: Scheduler = {
  now: () => performance.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

export class ResultsBroadcast {
  /** The version last broadcast, when, and the pending/single-flight state. */
  private version = -1;
  private lastSent = -Infinity;
  private pending: unknown = null;
  private sending = false;
  private again = false;
  private closed = false;
  broadcasts = 0;

  constructor(
    private readonly results: ResultsSource,
    private readonly subscribers: Subscribers,
    private readonly coalesceMs: number,
    private readonly log: Logger,
    private readonly scheduler: Scheduler = processScheduler,
  ) {}

  /** A local write changed the results: schedule a coalesced broadcast. */
  changed(): void {
    this.results.changed?.();
    if (this.closed || this.pending) return;
    const wait = Math.max(0, this.lastSent + this.coalesceMs - this.scheduler.now());
    this.pending = this.scheduler.setTimeout(() => void this.send(), wait);
  }

  /** Catches up with writes of other processes (called every poll interval). */
  poll(): void {
    if (this.closed || this.pending || this.sending) return;
    const watched = this.subscribers.count(REALTIME_CHANNEL) > 0;
    this.results
      .version()
      .then((v) => {
        if (v === this.version) return;
        // Unwatched, just keep up: a new watcher starts from a fresh snapshot anyway.
        if (watched) this.changed();
        else this.version = v;
      })
      .catch((error) => this.log.error({ err: error }, "could not read the results version"));
  }

  close(): void {
    this.closed = true;
    if (this.pending) this.scheduler.clearTimeout(this.pending);
  }

  private async send(): Promise<void> {
    this.pending = null;
    if (this.sending) {
      this.again = true;
      return;
    }
    this.sending = true;
    this.lastSent = this.scheduler.now();
    try {
      if (this.closed || this.subscribers.count(REALTIME_CHANNEL) === 0) return;
      // Read the counter first: the snapshot is at least this fresh.
      const version = await this.results.version();
      const snapshot = await this.results.get();
      const withheld = (await this.results.withheldFromVoters?.()) ?? false;
      this.version = Math.max(this.version, version);
      this.broadcasts++;
      const frame = sseFrame(NEW_VOTE_EVENT, snapshot);
      if (withheld) this.subscribers.broadcastSplit(REALTIME_CHANNEL, withheldFrame(NEW_VOTE_EVENT), frame);
      else this.subscribers.broadcast(REALTIME_CHANNEL, frame);
    } catch (error) {
      this.log.error({ err: error }, "could not broadcast results");
    } finally {
      this.sending = false;
      if (this.again) {
        this.again = false;
        this.changed();
      }
    }
  }
}
