/**
 * Server-Sent Events framing and the two places a stream's bytes can go.
 *
 * - A frame is serialised and encoded once per event; the same bytes go to every subscriber.
 * - Under @hono/node-server the frames go straight to the Node socket (about 3x lighter and
 *   faster than a web ReadableStream per client at 10,000 streams); without one (tests
 *   through `app.request()`) a ReadableStream carries them.
 * - A sink refuses a write (returns false) when its subscriber is gone or its unread backlog
 *   passed `maxBufferedBytes`: the hub then cuts it off rather than wait for it.
 */
import type { ServerResponse } from "node:http";
import { RESPONSE_ALREADY_SENT } from "@hono/node-server/utils/response";
import { messages } from "@evoting/shared";
import { isNodeResponse } from "../http/node-response.ts";

const encoder = new TextEncoder();
export const HEARTBEAT_FRAME = encoder.encode(": keep-alive\n\n");
/** Tells EventSource to come back after 3 s if the connection drops. */
export const RETRY_FRAME = encoder.encode("retry: 3000\n\n");

export function sseFrame(event: string, data: unknown, id?: string | number): Uint8Array {
  const idLine = id === undefined ? "" : `id: ${id}\n`;
  return encoder.encode(`${idLine}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}

/** What a voter's stream carries while results are withheld: the event, never a tally. */
export const withheldFrame = (event: string) => sseFrame(event, { withheld: true, message: messages.resultsHidden });

export const SSE_HEADERS = {
  "Content-Type": "text/event-stream; charset=utf-8",
  "Cache-Control": "no-cache, no-transform",
  Connection: "keep-alive",
  "X-Accel-Buffering": "no",
  "X-Content-Type-Options": "nosniff",
} as const;

/** Where a subscriber's bytes go: a Node response or a web stream. */
export interface Sink {
  /** False when the subscriber is gone or too far behind. */
  write(chunk: Uint8Array): boolean;
  /** Ends the stream; `abort` cuts it without flushing the backlog. */
  end(abort: boolean): void;
}

/**
 * Frames go straight to the socket: the response has flushed its headers and sends a
 * close-delimited body (see openSink), so there is no framing left for ServerResponse to add,
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
      // Queued bytes = high-water mark − desiredSize (byte-length strategy, see openSink).
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
 * Opens a stream: on the Node response when there is one (the answer to Hono is then
 * RESPONSE_ALREADY_SENT), else as a web stream in the answer. `onClose` runs when the client
 * goes away.
 */
export function openSink(outgoing: ServerResponse | undefined, maxBuffered: number, onClose: () => void): { sink: Sink; response: Response } {
  if (isNodeResponse(outgoing)) {
    // A close-delimited body instead of chunked encoding: each frame is then one plain
    // socket write of the shared bytes, not a chunk header + data + CRLF per subscriber.
    outgoing.removeHeader("Transfer-Encoding");
    outgoing.writeHead(200, { ...SSE_HEADERS, Connection: "close" });
    outgoing.flushHeaders();
    outgoing.socket?.setNoDelay(true);
    outgoing.on("close", onClose);
    return { sink: nodeSink(outgoing, maxBuffered), response: RESPONSE_ALREADY_SENT };
  }
  let sink: Sink | null = null;
  const stream = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        sink = streamSink(controller, maxBuffered);
      },
      cancel: onClose,
    },
    new ByteLengthQueuingStrategy({ highWaterMark: STREAM_HIGH_WATER }),
  );
  // start() runs inside the constructor, so the sink exists by now.
  return { sink: sink as unknown as Sink, response: new Response(stream, { headers: SSE_HEADERS }) };
}
