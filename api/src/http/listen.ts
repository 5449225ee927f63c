/**
 * The production listener: Node's HTTP server with @hono/node-server's adaptor in front of the
 * app, so every request, votes and results included, goes through the one Hono pipeline that
 * `app.request()` runs in the tests (docs/decisions/0014-one-request-pipeline.md).
 */
import type { Server } from "node:http";
import { createAdaptorServer } from "@hono/node-server";
import type { App } from "../app.ts";

export async function listen(app: App, options: { port: number; hostname: string }): Promise<Server> {
  const server = createAdaptorServer({ fetch: app.fetch }) as Server;
  await new Promise<void>((ok, fail) => {
    server.once("error", fail);
    server.listen(options.port, options.hostname, () => {
      server.off("error", fail);
      ok();
    });
  });
  return server;
}
