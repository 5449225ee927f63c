/** The subscriber index: who a broadcast reaches, the per-user cap, logout, and dropping a slow stream. */
import { describe, expect, it } from "vitest";
import { Subscribers, type Subscriber } from "./subscribers.ts";

function subscriber(channel: string, userId: string | null, session: string | null = null, accepts = true) {
  const got: string[] = [];
  const state = { ended: false, aborted: false };
  const s: Subscriber = {
    channel,
    userId,
    session,
    voter: false,
    queued: null,
    sink: {
      write: (chunk) => accepts && got.push(new TextDecoder().decode(chunk)) > 0,
      end: (abort) => Object.assign(state, { ended: true, aborted: abort }),
    },
  };
  return { s, got, state };
}
const frame = (text: string) => new TextEncoder().encode(text);

describe("Subscribers", () => {
  it("reaches the channel's subscribers, or one user's streams on it, and nobody else", () => {
    const subs = new Subscribers(5);
    const a = subscriber("results", "u1");
    const b = subscriber("results", "u2");
    const c = subscriber("chat", "u1");
    for (const x of [a, b, c]) subs.add(x.s);
    subs.broadcast("results", frame("r"));
    subs.broadcast("chat", frame("c"), "u1");
    subs.broadcast("chat", frame("nobody"), "u2");
    expect([a.got, b.got, c.got]).toEqual([["r"], ["r"], ["c"]]);
    expect([subs.count(), subs.count("results"), subs.count("chat"), subs.count("none")]).toEqual([3, 2, 1, 0]);
  });

  it("closes a user's oldest stream past the cap, ends a session's streams, drops one that cannot keep up", () => {
    const subs = new Subscribers(2);
    const [first, second, third] = [1, 2, 3].map(() => subscriber("results", "u1", "s1"));
    for (const x of [first, second, third]) subs.add(x.s);
    expect([first.state.ended, second.state.ended, third.state.ended]).toEqual([true, false, false]);
    expect(subs.count("results")).toBe(2);

    const slow = subscriber("results", "u2", null, false);
    subs.add(slow.s);
    subs.broadcast("results", frame("r"));
    expect(slow.state).toEqual({ ended: true, aborted: true });
    expect(subs.dropped).toBe(1);

    subs.endSession("s1");
    expect([second.state.ended, third.state.ended]).toEqual([true, true]);
    expect(subs.count()).toBe(0);
  });
});
