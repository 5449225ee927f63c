// Entry of the ballot verifier thread from source: a worker does not inherit the parent's
// `--import tsx`, so it registers the TypeScript loader itself.
import { register } from "tsx/esm/api";

register();
await import("./verifier-thread.ts");
