/**
 * Where the server finds what is not code: the migrations, the built PWA, the writer thread's
 * entry. This module sits one folder below `api/` both as source (`api/src/`) and inside the
 * server bundle (`api/dist/`, scripts/build-server.mjs), so the same relative paths hold in both.
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const here = new URL(".", import.meta.url);
const bundled = !import.meta.url.endsWith(".ts");

export const apiRoot = fileURLToPath(new URL("..", here));
export const migrationsFolder = join(apiRoot, "drizzle");
export const pwaDist = join(apiRoot, "../pwa/dist");
/**
 * From source the thread starts from a boot file that registers tsx (a worker does not inherit
 * the parent's `--import tsx`); the bundle has the thread's own bundle beside it.
 */
/** The writer thread's `workerData`: only a thread started with it serves writes (db/writer-thread.ts). */
export const WRITER_THREAD = "evoting-writer-thread";

export const writerThreadUrl = bundled ? new URL("writer-thread.mjs", here) : new URL("db/writer-thread-boot.mjs", here);

/** The count thread (services/results/count-thread.ts): ranked counts and BLT files off the event loop. */
export const countThreadUrl = bundled ? new URL("count-thread.mjs", here) : new URL("services/results/count-thread-boot.mjs", here);
/** The Belenios ballot verifier's thread (services/belenios/verifier.ts), started the same way. */
export const beleniosVerifierUrl = bundled ? new URL("belenios-verifier.mjs", here) : new URL("services/belenios/verifier-thread-boot.mjs", here);
