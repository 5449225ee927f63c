import { readFileSync } from "node:fs";
import { relative } from "node:path";
import { STAFF_ROUTE } from "./voter-precache";

/**
 * The voter's screens in two chunks instead of the fifty-odd small ones automatic splitting
 * makes from the routes' shared components. On a phone's first visit each file of the
 * precache costs a round trip on one of the browser's six connections, and Workbox's install
 * pass then takes them one at a time: on a 150 ms link, fifty small files cost seconds that
 * their bytes do not (bench/first-visit.ts, docs/decisions/0018-voter-precache.md).
 *
 * The chunks hold every module a voter route's component reaches by static imports, except
 * what a group of higher priority took first (React, the app with the sign-in screen, zod's
 * chunk). What a voter screen imports dynamically stays out on purpose: the device store
 * (Dexie, loaded when the page is idle) and zod (loaded when a form is first used).
 * Staff-only modules (reached from no voter route) are left to automatic splitting and cached
 * when a staff screen is first opened.
 */

/** The subset of Rolldown's chunking context used here. */
interface ChunkingContext {
  getModuleInfo(id: string): { importedIds: readonly string[] } | null;
}

/** A route component's own module, as the router plugin splits it (`?tsr-split=component`). */
const splitRoute = /[\\/]src[\\/]routes[\\/].*\?tsr-split=component/;

/** The sign-in route: every visitor's first screen, in the app's chunk (see vite.config.ts). */
export const LOGIN_ROUTE = /[\\/]src[\\/]routes[\\/]login\.tsx\?tsr-split=component/;

/** Whether a module id is a voter route's component (not staff, not the sign-in). */
export function isVoterRoute(id: string, root: string): boolean {
  if (!splitRoute.test(id) || LOGIN_ROUTE.test(id)) return false;
  return !STAFF_ROUTE.test(relative(root, id).split("\\").join("/"));
}

/** The routes of a vote's path (the signed-in layout and the ballot), the chunk `voter`. */
const VOTE_PATH = /[\\/]src[\\/]routes[\\/](?:_auth\.tsx|_auth[\\/]vote\.tsx)\?/;

/**
 * A Rolldown `codeSplitting` group that gathers the voter's screens into two chunks: `voter`,
 * what the signed-in layout and the ballot reach (all that /vote loads), and `screens`, what
 * the other voter routes reach besides. `root` is the app's folder (pwa/), against which route
 * paths are read.
 */
export function voterScreensGroups(root: string) {
  const candidates: string[] = [];
  let chunkOf: Map<string, string> | null = null;
  const assign = (ctx: ChunkingContext) => {
    const chunks = new Map<string, string>();
    const walk = (roots: string[], name: string) => {
      const queue = [...roots];
      while (queue.length > 0) {
        const id = queue.pop()!;
        if (chunks.has(id)) continue;
        chunks.set(id, name);
        queue.push(...(ctx.getModuleInfo(id)?.importedIds ?? []));
      }
    };
    const routes = candidates.filter((id) => isVoterRoute(id, root));
    walk(routes.filter((id) => VOTE_PATH.test(id)), "voter");
    walk(routes.filter((id) => !VOTE_PATH.test(id)), "screens");
    return chunks;
  };
  const group = (chunk: string, priority: number) => ({
    // Rolldown calls `test` for every candidate before the first `name`: the candidates are
    // the whole graph, from which the voter routes are the roots.
    test: (id: string) => {
      candidates.push(id);
      return true;
    },
    name: (id: string, ctx: ChunkingContext) => ((chunkOf ??= assign(ctx)).get(id) === chunk ? chunk : null),
    priority,
  });
  // `voter` first: a group takes its modules' imports with it, and the ballot's must not go
  // with `screens`.
  return [group("voter", 0.5), group("screens", 0)];
}

/**
 * zod and the shared modules that define schemas with it, in one chunk: the voter's forms
 * load it when first used (the sign-in's and the ballot's checks through a dynamic import),
 * so the ballot's first load does not evaluate it. A module is in it when its source imports
 * zod; `-schemas.ts` modules of the app (the dynamic imports' targets) come with them.
 */
export function schemasGroup() {
  const importsZod = new Map<string, boolean>();
  return {
    name: "schemas",
    test: (id: string) => {
      if (/[\\/]node_modules[\\/]zod[\\/]/.test(id) || /[\\/]src[\\/].*-schemas\.ts$/.test(id)) return true;
      if (!/[\\/]shared[\\/]src[\\/].*\.ts$/.test(id)) return false;
      if (!importsZod.has(id)) importsZod.set(id, /from "zod(?:\/[^"]*)?"/.test(readFileSync(id, "utf8")));
      return importsZod.get(id);
    },
  };
}
