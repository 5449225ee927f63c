/**
 * `npm run bench -- --only=pages`: the first minutes of polling day, seen from the server.
 * N phones open the app at once, each fetching what a first load fetches before anything else
 * (the page, its one script, and the modules index.html preloads), gzip accepted, over
 * loopback. Prints the time until every phone has them all, and how long the page's one
 * script waited (the browser cannot start the app before it). Needs `npm run build`.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startServer, ROOT } from "./lib/server.ts";
import { Latencies, ms } from "./lib/stats.ts";

export interface PagesResult {
  files: number;
  kilobytes: number;
  /** Every phone has every file, per round. */
  roundMs: number[];
  /** "entry": the page's one script; "file": every answer. */
  latencies: Latencies;
}

/** What a first visit fetches at once: index.html's script and the app's modules it lists (src/boot.ts requests them). */
export function firstLoadFiles(html: string): string[] {
  const entry = html.match(/<script type="module"[^>]*src="([^"]+)"/)?.[1];
  if (!entry) throw new Error("pwa/dist/index.html has no module script: run `npm run build`");
  const modules = html.match(/<meta name="app-modules" content="([^"]*)"/)?.[1]?.split(" ").filter(Boolean) ?? [];
  return [entry, ...modules];
}

export async function benchPages({ phones = 50, rounds = 5 } = {}): Promise<PagesResult> {
  const html = readFileSync(join(ROOT, "pwa/dist/index.html"), "utf8");
  const [entry, ...modules] = firstLoadFiles(html);
  const dir = mkdtempSync(join(tmpdir(), "evoting-bench-pages-"));
  const server = await startServer({ dbPath: join(dir, "pages.db") });
  const result: PagesResult = { files: 2 + modules.length, kilobytes: 0, roundMs: [], latencies: new Latencies() };
  const get = async (path: string, isEntry = false) => {
    const started = performance.now();
    const res = await fetch(server.url + path, { headers: { "accept-encoding": "gzip" } });
    if (!res.ok) throw new Error(`${path}: ${res.status}`);
    const bytes = (await res.arrayBuffer()).byteLength;
    const took = performance.now() - started;
    result.latencies.add("file", took);
    if (isEntry) result.latencies.add("entry", took);
    return bytes;
  };
  const phone = async () => {
    await get("/vote");
    const sizes = await Promise.all([get(entry!, true), ...modules.map((m) => get(m))]);
    return sizes.reduce((a, b) => a + b, 0);
  };
  try {
    await Promise.all(Array.from({ length: 5 }, phone)); // the files' first reads
    for (let round = 0; round < rounds; round++) {
      const started = performance.now();
      const bytes = await Promise.all(Array.from({ length: phones }, phone));
      result.roundMs.push(performance.now() - started);
      result.kilobytes = bytes[0]! / 1024;
    }
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  const median = [...result.roundMs].sort((a, b) => a - b)[Math.floor(rounds / 2)]!;
  const by = Object.fromEntries(result.latencies.summary().map((s) => [s.kind, s]));
  console.log(
    `pages    ${phones} phones open the app at once, ${rounds} times (${result.files} files, ${result.kilobytes.toFixed(0)} KB of scripts unzipped): ` +
      `all done in ${result.roundMs.map((t) => Math.round(t)).join(" / ")} ms (median ${Math.round(median)}); ` +
      `the page's script p50 ${ms(by.entry!.p50)}, p99 ${ms(by.entry!.p99)}; any file p99 ${ms(by.file!.p99)}`,
  );
  return result;
}
