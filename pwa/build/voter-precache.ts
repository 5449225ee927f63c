import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

/**
 * The service worker's precache is what a voter's phone needs offline, nothing more: the
 * page, the icons, and every chunk the voter's screens can load, derived from Vite's build
 * manifest, so a new voter route is precached without anyone listing it. The staff screens'
 * chunks (administrators', the polling station's) stay in the worker's manifest marked
 * `onDemand`: the worker caches them all the first time a staff screen is opened online
 * (src/sw.ts), so an administrator's or officer's device keeps working offline, while a
 * voter's first visit downloads less.
 *
 * A route is staff when its file is under a routes folder named `admin` or is `station`;
 * every other route is the voter's. The build fails when the voter's precache misses a
 * voter route or outgrows its budget.
 */

/** A route file (as Vite's manifest names it) that only staff open. */
export const STAFF_ROUTE = /^src\/routes\/(?:.*\/)?(?:admin|station)(?:[/.?]|$)/;

/**
 * The voter's precache, gzipped as the server sends it: a few KB above what the build measures
 * (decisions 0025 and 0027 have the figures), so growth is a decision. It is set from the build, not from a target: the
 * figure a voter feels is offline-ready on the first visit, met with room
 * (docs/decisions/0025-react-back.md). `npm run precache-by-package -w pwa` shows what the
 * precache is made of.
 */
export const VOTER_PRECACHE_BUDGET_KB = 276;

/**
 * At most this many of the build's files in the voter's precache: on a slow link each costs
 * a round trip, and Workbox's install takes them one at a time (the voter's screens are
 * grouped into a few chunks for this: build/voter-chunks.ts). Today 13.
 */
export const VOTER_PRECACHE_MAX_FILES = 16;

/**
 * The verifiable ballot's worker (src/verifiable/ballot-worker.ts, the Belenios cryptography):
 * not precached, since most elections have no verifiable position. The vote page fetches it when
 * the ballot holds one, and the service worker keeps it (src/sw.ts), so that voter can encrypt
 * offline from then on.
 */
export const VERIFIABLE_BALLOT_WORKER = /(?:^|\/)assets\/ballot-worker-[\w-]+\.js$/;

/**
 * Workers only staff screens start (the Credential Authority's credentials and QR codes,
 * src/screens/admin/verifiable/credential-worker.ts). Vite's manifest does not list a worker's
 * file, so it would otherwise be precached for every voter: it is cached on demand, as the staff
 * screens' chunks are.
 */
export const STAFF_WORKERS = /(?:^|\/)assets\/credential-worker-[\w-]+\.js$/;

export interface ViteManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}
export type ViteManifest = Record<string, ViteManifestChunk>;

/** Files (as served, without the leading slash) that the voter's screens can load. */
export function voterFiles(manifest: ViteManifest): Set<string> {
  const files = new Set<string>();
  const seen = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || seen.has(key) || STAFF_ROUTE.test(key)) return;
    seen.add(key);
    files.add(chunk.file);
    for (const next of [...(chunk.imports ?? []), ...(chunk.dynamicImports ?? [])]) visit(next);
  };
  for (const [key, chunk] of Object.entries(manifest)) if (chunk.isEntry) visit(key);
  return files;
}

/** The voter's route modules in the build (a route without a split chunk lives in the route tree). */
export const voterRouteChunks = (manifest: ViteManifest) =>
  Object.keys(manifest).filter((key) => key.startsWith("src/routes/") && !STAFF_ROUTE.test(key));

export interface PrecacheEntry {
  url: string;
  revision: string | null;
  size: number;
  onDemand?: true;
}

export interface PrecacheSplit {
  entries: PrecacheEntry[];
  /** Gzip bytes of the entries precached for everyone. */
  voterGzip: number;
  problems: string[];
}

/**
 * Marks the staff-only chunks of `entries` (the precache workbox-build found) `onDemand`, and
 * checks what stays: every voter route's chunk is in it and it fits the budget. Files Vite's
 * manifest does not know (index.html, icons, the web manifest) stay precached.
 */
export function splitPrecache(entries: PrecacheEntry[], manifest: ViteManifest, read: (url: string) => Uint8Array): PrecacheSplit {
  const voter = voterFiles(manifest);
  const built = new Set(Object.values(manifest).map((chunk) => chunk.file));
  const staff = (url: string) => (built.has(url) && !voter.has(url)) || STAFF_WORKERS.test(url);
  const split = entries.filter((entry) => !VERIFIABLE_BALLOT_WORKER.test(entry.url)).map((entry): PrecacheEntry => (staff(entry.url) ? { ...entry, onDemand: true } : entry));
  const precached = new Set(split.filter((entry) => !entry.onDemand).map((entry) => entry.url));
  const problems = voterRouteChunks(manifest)
    .filter((key) => !precached.has(manifest[key].file))
    .map((key) => `the voter route ${key} (${manifest[key].file}) is not precached`);
  const voterGzip = [...precached].reduce((sum, url) => sum + gzipSync(read(url), { level: 9 }).length, 0);
  if (precached.size > VOTER_PRECACHE_MAX_FILES) {
    problems.push(`the voter's precache is ${precached.size} files, over its ${VOTER_PRECACHE_MAX_FILES}: group the new chunks (build/voter-chunks.ts)`);
  }
  if (voterGzip > VOTER_PRECACHE_BUDGET_KB * 1024) {
    problems.push(`the voter's precache is ${(voterGzip / 1024).toFixed(1)} KB gzip, over its ${VOTER_PRECACHE_BUDGET_KB} KB budget`);
  }
  return { entries: split, voterGzip, problems };
}

/** The workbox-build transform for `outDir`: fails the build on a problem, says the size otherwise. */
export function voterPrecache(outDir: string) {
  return (entries: PrecacheEntry[]) => {
    const manifestPath = join(outDir, ".vite/manifest.json");
    // None when the app's own build failed (the plugin still builds the worker): that build's
    // error is the one to see. The first-visit browser test fails if nothing was split.
    if (!existsSync(manifestPath)) return { manifest: entries, warnings: [`voter precache: no ${manifestPath}, nothing split or checked`] };
    const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as ViteManifest;
    const { entries: split, voterGzip, problems } = splitPrecache(entries, manifest, (url) => readFileSync(join(outDir, url)));
    if (problems.length > 0) throw new Error(`voter precache: ${problems.join("; ")}`);
    const onDemand = split.filter((entry) => entry.onDemand).length;
    console.log(
      `voter precache: ${split.length - onDemand} files (at most ${VOTER_PRECACHE_MAX_FILES}), ${(voterGzip / 1024).toFixed(1)} KB gzip (budget ${VOTER_PRECACHE_BUDGET_KB} KB); ${onDemand} staff files cached when first opened`,
    );
    return { manifest: split, warnings: [] };
  };
}

/** The built worker's manifest, read back from `sw.js`: what every device precaches, and what staff screens cache on demand. */
export function builtPrecache(swSource: string): { precached: string[]; onDemand: string[] } {
  const precached: string[] = [];
  const onDemand: string[] = [];
  for (const [entry] of swSource.matchAll(/\{[^{}]*"url":"[^"]+"[^{}]*\}/g)) {
    const url = /"url":"([^"]+)"/.exec(entry)![1];
    (entry.includes('"onDemand":true') ? onDemand : precached).push(url);
  }
  return { precached, onDemand };
}
