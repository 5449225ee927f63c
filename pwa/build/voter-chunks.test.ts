import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { isVoterRoute, schemasGroup, voterScreensGroups } from "./voter-chunks";

const ROOT = "/r/pwa";
const route = (path: string) => `${ROOT}/src/routes/${path}?tsr-split=component`;

/** A module graph shaped like the app's: each id with what it imports statically. */
const GRAPH: Record<string, string[]> = {
  [`${ROOT}/src/main.tsx`]: [`${ROOT}/src/routeTree.gen.ts`],
  [`${ROOT}/src/routeTree.gen.ts`]: [],
  [route("login.tsx")]: [`${ROOT}/src/screens/LoginPage.tsx`],
  [`${ROOT}/src/screens/LoginPage.tsx`]: [`${ROOT}/src/components/ui/Field.tsx`],
  [route("_auth.tsx")]: [`${ROOT}/src/components/layout/AppLayout.tsx`],
  [`${ROOT}/src/components/layout/AppLayout.tsx`]: [`${ROOT}/src/components/ui/Card.tsx`],
  [route("_auth/vote.tsx")]: [`${ROOT}/src/screens/VotePage.tsx`],
  [`${ROOT}/src/screens/VotePage.tsx`]: [`${ROOT}/src/components/vote/VoteCard.tsx`, `${ROOT}/src/components/ui/Card.tsx`],
  [`${ROOT}/src/components/vote/VoteCard.tsx`]: [],
  [`${ROOT}/src/components/ui/Card.tsx`]: [],
  [`${ROOT}/src/components/ui/Field.tsx`]: [],
  [route("_auth/results.tsx")]: [`${ROOT}/src/screens/ResultsPage.tsx`],
  [`${ROOT}/src/screens/ResultsPage.tsx`]: [`${ROOT}/src/components/results/Chart.tsx`, `${ROOT}/src/components/ui/Card.tsx`],
  [`${ROOT}/src/components/results/Chart.tsx`]: [],
  [route("_auth/elections/$id.tsx")]: [`${ROOT}/src/screens/elections/PastElectionPage.tsx`],
  [`${ROOT}/src/screens/elections/PastElectionPage.tsx`]: [`${ROOT}/src/components/results/Chart.tsx`],
  [route("_auth/admin/voters/index.tsx")]: [`${ROOT}/src/screens/admin/ManageVotersPage.tsx`],
  [`${ROOT}/src/screens/admin/ManageVotersPage.tsx`]: [`${ROOT}/src/components/admin/Table.tsx`, `${ROOT}/src/components/results/Chart.tsx`],
  [`${ROOT}/src/components/admin/Table.tsx`]: [],
  [route("station.tsx")]: [`${ROOT}/src/screens/station/StationPage.tsx`],
  [`${ROOT}/src/screens/station/StationPage.tsx`]: [],
};

/** What Rolldown does with the groups: `test` on every module first, then `name` on those it captured. */
function chunkOf(): Record<string, string | null> {
  const ctx = { getModuleInfo: (id: string) => (GRAPH[id] ? { importedIds: GRAPH[id] } : null) };
  const groups = voterScreensGroups(ROOT);
  const out: Record<string, string | null> = Object.fromEntries(Object.keys(GRAPH).map((id) => [id, null]));
  for (const group of [...groups].sort((a, b) => b.priority - a.priority)) {
    const captured = Object.keys(GRAPH).filter((id) => out[id] === null && group.test(id));
    for (const id of captured) out[id] = group.name(id, ctx) ?? null;
  }
  return out;
}

describe("the voter's screens in two chunks", () => {
  test("the signed-in layout and the ballot with what they import are `voter`; the other voter screens' own modules are `screens`", () => {
    const chunks = chunkOf();
    for (const id of [route("_auth.tsx"), `${ROOT}/src/components/layout/AppLayout.tsx`, route("_auth/vote.tsx"), `${ROOT}/src/screens/VotePage.tsx`, `${ROOT}/src/components/vote/VoteCard.tsx`, `${ROOT}/src/components/ui/Card.tsx`]) {
      expect(chunks[id], id).toBe("voter");
    }
    // A new voter route (Past Elections here) is taken without being listed.
    for (const id of [route("_auth/results.tsx"), `${ROOT}/src/screens/ResultsPage.tsx`, `${ROOT}/src/components/results/Chart.tsx`, route("_auth/elections/$id.tsx"), `${ROOT}/src/screens/elections/PastElectionPage.tsx`]) {
      expect(chunks[id], id).toBe("screens");
    }
  });

  test("staff screens, the sign-in and the app's own modules are left to the other groups and to automatic splitting", () => {
    const chunks = chunkOf();
    for (const id of [route("_auth/admin/voters/index.tsx"), `${ROOT}/src/screens/admin/ManageVotersPage.tsx`, `${ROOT}/src/components/admin/Table.tsx`, route("station.tsx"), `${ROOT}/src/screens/station/StationPage.tsx`, route("login.tsx"), `${ROOT}/src/screens/LoginPage.tsx`, `${ROOT}/src/components/ui/Field.tsx`, `${ROOT}/src/main.tsx`]) {
      expect(chunks[id], id).toBeNull();
    }
    expect(isVoterRoute(route("_auth/admin/index.tsx"), ROOT)).toBe(false);
    expect(isVoterRoute(route("admin/results/print.tsx"), ROOT)).toBe(false);
    expect(isVoterRoute(route("_auth/receipts.tsx"), ROOT)).toBe(true);
    // The route's definition (guards, search) is in the route tree, not a screen's chunk.
    expect(isVoterRoute(`${ROOT}/src/routes/_auth/receipts.tsx`, ROOT)).toBe(false);
  });
});

describe("zod's chunk", () => {
  const file = (path: string) => fileURLToPath(new URL(`../../${path}`, import.meta.url));
  test("takes zod, the shared modules that define schemas with it and the app's -schemas modules, nothing else", () => {
    const { test: takes } = schemasGroup();
    expect(takes(file("node_modules/zod/v4/classic/schemas.js"))).toBe(true);
    expect(takes(file("shared/src/schemas.ts"))).toBe(true);
    expect(takes(file("shared/src/nominations.ts"))).toBe(true);
    expect(takes(file("pwa/src/screens/login/login-schemas.ts"))).toBe(true);
    expect(takes(file("pwa/src/components/vote/vote-schemas.ts"))).toBe(true);
    expect(takes(file("shared/src/messages.ts"))).toBe(false);
    expect(takes(file("shared/src/election-rules.ts"))).toBe(false);
    expect(takes(file("pwa/src/main.tsx"))).toBe(false);
  });
});
