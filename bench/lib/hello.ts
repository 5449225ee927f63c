/** The ceiling: a bare Hono hello world on @hono/node-server, in its own process. */
import { serve } from "@hono/node-server";
import { Hono } from "hono";

const app = new Hono().get("/", (c) => c.text("Hello Hono!"));
const port = Number(process.argv[2] ?? 0);
serve({ fetch: app.fetch, port, hostname: "127.0.0.1" }, (info) => console.log(`hello listening on ${info.port}`));
