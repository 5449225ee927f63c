import { describe, expect, test } from "vitest";
import { builtPrecache, splitPrecache, VOTER_PRECACHE_BUDGET_KB, VOTER_PRECACHE_MAX_FILES, voterFiles, type PrecacheEntry, type ViteManifest } from "./voter-precache";

/** A build shaped like the app's: an entry that imports the app after its first paint, the app importing every route. */
function build(routes: string[]): ViteManifest {
  const manifest: ViteManifest = {
    "index.html": { file: "assets/index-1.js", isEntry: true, imports: ["_rolldown-runtime.js"], dynamicImports: ["_app.js", "_react.js"] },
    "_rolldown-runtime.js": { file: "assets/rolldown-runtime-1.js" },
    "_react.js": { file: "assets/react-1.js" },
    "_app.js": { file: "assets/app-1.js", imports: ["_react.js"], dynamicImports: ["src/offline/app/runtime.ts"] },
    "src/offline/app/runtime.ts": { file: "assets/runtime-1.js", imports: ["_photos.js"] },
    "_photos.js": { file: "assets/photos-1.js" },
    "_Card.js": { file: "assets/Card-1.js" },
    "_admin-only.js": { file: "assets/admin-only-1.js", imports: ["_Card.js"] },
  };
  for (const route of routes) {
    const key = `src/routes/${route}?tsr-split=component`;
    const staff = /admin|station/.test(route);
    manifest[key] = { file: `assets/${route.replace(/\W/g, "_")}-1.js`, imports: staff ? ["_admin-only.js"] : ["_Card.js"] };
    manifest["_app.js"].dynamicImports!.push(key);
  }
  return manifest;
}

const ROUTES = ["login.tsx", "_auth.tsx", "_auth/vote.tsx", "_auth/results.tsx", "_auth/candidates.tsx", "_auth/admin/route.tsx", "_auth/admin/voters/index.tsx", "admin/results/print.tsx", "station.tsx"];
const entriesOf = (manifest: ViteManifest): PrecacheEntry[] => [
  { url: "index.html", revision: "abc", size: 1 },
  ...Object.values(manifest).map((chunk) => ({ url: chunk.file, revision: null, size: 1 })),
];
const small = () => new Uint8Array(100);

describe("the voter's precache", () => {
  test("holds the page and every chunk the voter's screens load, and none only staff screens load", () => {
    const manifest = build(ROUTES);
    const { entries, problems } = splitPrecache(entriesOf(manifest), manifest, small);
    expect(problems).toEqual([]);
    const precached = entries.filter((entry) => !entry.onDemand).map((entry) => entry.url);
    const onDemand = entries.filter((entry) => entry.onDemand).map((entry) => entry.url);
    expect(precached).toEqual(
      expect.arrayContaining(["index.html", "assets/app-1.js", "assets/react-1.js", "assets/runtime-1.js", "assets/photos-1.js", "assets/Card-1.js", "assets/login_tsx-1.js", "assets/_auth_vote_tsx-1.js"]),
    );
    expect(onDemand.sort()).toEqual(
      ["assets/_auth_admin_route_tsx-1.js", "assets/_auth_admin_voters_index_tsx-1.js", "assets/admin-only-1.js", "assets/admin_results_print_tsx-1.js", "assets/station_tsx-1.js"].sort(),
    );
  });

  test("keeps the staff screens' workers (not in Vite's manifest) out, cached on demand", () => {
    const manifest = build(ROUTES);
    const entries = [...entriesOf(manifest), { url: "assets/credential-worker-Ab1_x.js", revision: null, size: 1 }, { url: "assets/ballot-worker-Cd2.js", revision: null, size: 1 }];
    const split = splitPrecache(entries, manifest, small).entries;
    expect(split.find((entry) => entry.url === "assets/credential-worker-Ab1_x.js")).toMatchObject({ onDemand: true });
    expect(split.some((entry) => entry.url === "assets/ballot-worker-Cd2.js")).toBe(false);
  });

  test("takes a new voter route without being told, and keeps a new staff route out", () => {
    const manifest = build([...ROUTES, "_auth/elections.tsx", "_auth/admin/nominations.tsx"]);
    const files = voterFiles(manifest);
    expect(files.has("assets/_auth_elections_tsx-1.js")).toBe(true);
    expect(files.has("assets/_auth_admin_nominations_tsx-1.js")).toBe(false);
  });

  test("fails when a voter route is not reached from the page", () => {
    const manifest = build(ROUTES);
    manifest["src/routes/_auth/apply.tsx?tsr-split=component"] = { file: "assets/apply-1.js" }; // nothing imports it
    const { problems } = splitPrecache(entriesOf(manifest), manifest, small);
    expect(problems).toEqual(["the voter route src/routes/_auth/apply.tsx?tsr-split=component (assets/apply-1.js) is not precached"]);
  });

  test("fails over its budget", () => {
    const manifest = build(ROUTES);
    // Random bytes do not compress: the voter's files come to more than the budget.
    const big = () => crypto.getRandomValues(new Uint8Array(Math.ceil((VOTER_PRECACHE_BUDGET_KB * 1024) / 10)));
    const { problems, voterGzip } = splitPrecache(entriesOf(manifest), manifest, big);
    expect(voterGzip).toBeGreaterThan(VOTER_PRECACHE_BUDGET_KB * 1024);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^the voter's precache is [\d.]+ KB gzip, over its \d+ KB budget$/);
  });

  test("fails when it is more files than its limit: each costs a slow link a round trip", () => {
    const routes = [...ROUTES, ...Array.from({ length: VOTER_PRECACHE_MAX_FILES }, (_, n) => `_auth/screen${n}.tsx`)];
    const manifest = build(routes);
    const { problems } = splitPrecache(entriesOf(manifest), manifest, small);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(new RegExp(`^the voter's precache is \\d+ files, over its ${VOTER_PRECACHE_MAX_FILES}: group the new chunks`));
    // The app's own build is within it (the first test's, 9 files, too).
    expect(splitPrecache(entriesOf(build(ROUTES)), build(ROUTES), small).problems).toEqual([]);
  });

  test("is read back from the built worker", () => {
    const sw = 'x=[{"revision":"a1","url":"index.html"},{"onDemand":true,"revision":null,"url":"assets/admin-1.js"},{"revision":null,"url":"assets/app-1.js"}];';
    expect(builtPrecache(sw)).toEqual({ precached: ["index.html", "assets/app-1.js"], onDemand: ["assets/admin-1.js"] });
  });
});
