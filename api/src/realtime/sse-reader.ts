/**
 * Test helper: reads a Server-Sent Events response body into timestamped events, so tests can
 * assert what arrived and when. Comments (heartbeats) are counted, not kept.
 */
export interface SseEvent {
  event: string;
  data: string;
  id?: string;
  at: number;
}

export function readSse(res: Response) {
  if (!res.body) throw new Error("response has no body");
  const reader = res.body.getReader();
  const events: SseEvent[] = [];
  let comments = 0;
  let ended = false;
  const decoder = new TextDecoder();

  const parse = (block: string) => {
    let event = "message";
    const data: string[] = [];
    let id: string | undefined;
    let sawField = false;
    for (const line of block.split("\n")) {
      if (line.startsWith(":")) {
        comments++;
        continue;
      }
      const colon = line.indexOf(":");
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
      if (field === "event") event = value;
      else if (field === "data") data.push(value);
      else if (field === "id") id = value;
      else continue;
      sawField = true;
    }
    if (sawField && data.length > 0) events.push({ event, data: data.join("\n"), id, at: Date.now() });
  };

  const pump = (async () => {
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let cut: number;
      while ((cut = buffer.indexOf("\n\n")) >= 0) {
        parse(buffer.slice(0, cut));
        buffer = buffer.slice(cut + 2);
      }
    }
  })()
    .catch(() => {})
    .finally(() => (ended = true));

  return {
    events,
    comments: () => comments,
    ended: () => ended,
    of: (name: string) => events.filter((e) => e.event === name),
    async waitFor(predicate: () => boolean, timeoutMs = 3_000, what = "condition"): Promise<void> {
      const deadline = Date.now() + timeoutMs;
      while (!predicate()) {
        if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
        await new Promise((r) => setTimeout(r, 10));
      }
    },
    async close() {
      await reader.cancel().catch(() => {});
      await pump;
    },
  };
}
