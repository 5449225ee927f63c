// Entry of the count thread from source: a worker does not inherit the parent's `--import tsx`,
// so it registers the TypeScript loader itself before loading the thread's code.
import { register } from "tsx/esm/api";

register();
await import("./count-thread.ts");
