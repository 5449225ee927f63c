// Entry of the writer thread: a worker does not inherit the parent's `--import tsx`, so it
// registers the TypeScript loader itself before loading the thread's code.
import { register } from "tsx/esm/api";

register();
await import("./writer-thread.ts");
