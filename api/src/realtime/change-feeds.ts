/**
 * Channels whose changes are numbered (the chat room): each feed's frames after the last
 * number this process sent are broadcast when a local write asks (`sync`) and on every poll,
 * so a message written through any process reaches every process's watchers.
 */
import type { Logger } from "../log.ts";
import type { Subscribers } from "./subscribers.ts";

/**
 * A channel whose changes are numbered: `head()` is the latest number, cheap to poll;
 * `after(rev)` returns the frames of the changes after `rev` and the number they reach.
 */
export interface ChangeFeed {
  channel: string;
  head(): Promise<number>;
  after(rev: number): Promise<{ frames: Uint8Array[]; rev: number }>;
}

class FeedState {
  rev: number | null = null;
  readonly ready: Promise<void>;
  private syncing: Promise<void> | null = null;
  private again = false;

  constructor(
    private readonly feed: ChangeFeed,
    private readonly subscribers: Subscribers,
    private readonly isClosed: () => boolean,
    private readonly log: Logger,
  ) {
    this.ready = feed
      .head()
      .then((rev) => {
        this.rev = rev;
      })
      .catch(() => {
        this.rev = 0;
      });
  }

  /** Broadcasts everything after the last rev; single-flight, re-runs if asked meanwhile. */
  sync(): Promise<void> {
    if (this.syncing) {
      this.again = true;
      return this.syncing;
    }
    this.syncing = (async () => {
      try {
        await this.ready;
        do {
          this.again = false;
          if (this.subscribers.count(this.feed.channel) === 0) {
            // Nobody listens: just keep up, so a later subscriber gets no stale backlog.
            this.rev = await this.feed.head();
            continue;
          }
          for (;;) {
            const { frames, rev } = await this.feed.after(this.rev ?? 0);
            for (const frame of frames) this.subscribers.broadcast(this.feed.channel, frame);
            if (rev <= (this.rev ?? 0) || frames.length === 0) break;
            this.rev = rev;
          }
        } while (this.again && !this.isClosed());
      } catch (error) {
        this.log.error({ err: error, channel: this.feed.channel }, "could not sync a channel");
      } finally {
        this.syncing = null;
      }
    })();
    return this.syncing;
  }
}

export class ChangeFeeds {
  private readonly feeds: FeedState[] = [];

  constructor(
    private readonly subscribers: Subscribers,
    private readonly isClosed: () => boolean,
    private readonly log: Logger,
  ) {}

  /** Registers a feed; returns the call a local write makes to push it out now. */
  add(feed: ChangeFeed): () => void {
    const state = new FeedState(feed, this.subscribers, this.isClosed, this.log);
    this.feeds.push(state);
    return () => void state.sync();
  }

  poll(): void {
    for (const state of this.feeds) void state.sync();
  }
}
