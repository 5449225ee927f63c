/**
 * A TCP relay in front of the test server that a test can cut like a campus Wi-Fi drop.
 * Chromium's offline emulation alone has been seen to let a new page's first requests
 * through under load; behind a cut relay nothing reaches the server, whatever the browser
 * (or its service worker) does. The test's own API calls go to the server directly.
 */
import { createServer, connect, type Socket } from "node:net";
import type { AddressInfo } from "node:net";

export interface NetworkSwitch {
  url: string;
  cut(): void;
  restore(): void;
  close(): Promise<void>;
}

export async function startNetworkSwitch(target: string): Promise<NetworkSwitch> {
  const { hostname, port } = new URL(target);
  const open = new Set<Socket>();
  let down = false;
  const server = createServer((client) => {
    if (down) {
      client.destroy();
      return;
    }
    const upstream = connect(Number(port), hostname);
    open.add(client).add(upstream);
    const end = () => {
      client.destroy();
      upstream.destroy();
      open.delete(client);
      open.delete(upstream);
    };
    client.on("error", end).on("close", end);
    upstream.on("error", end).on("close", end);
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${address.port}`,
    cut() {
      down = true;
      for (const socket of open) socket.destroy();
      open.clear();
    },
    restore() {
      down = false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
