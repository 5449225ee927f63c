// `npm start`: runs the built server (api/dist) with plain node; migrations apply at start.
// The PWA is built on the first start when the build tools are there (scripts/built.mjs).
// The server runs in this process's child, so stopping npm stops the server.
import { ensureBuilt, runBuilt } from "./built.mjs";

runBuilt(await ensureBuilt("server", { pwa: true }));
