import { expect, test } from "vitest";
import { folderOf, layerViolations } from "./layers.mjs";

const src = "/repo/pwa/src";
const edges = (pairs) => new Map(pairs.map(([from, ...to]) => [`${src}/${from}`, to.map((t) => `${src}/${t}`)]));

test("an import down the layers passes, one up or across fails", () => {
  expect(layerViolations(edges([["data/queries.ts", "offline/app/load.ts", "api/client.ts", "auth/session.ts"]]), src)).toEqual([]);
  expect(layerViolations(edges([["offline/app/runtime.ts", "data/cast-vote.ts"]]), src)).toEqual([
    "src/offline/app/runtime.ts imports src/data/cast-vote.ts: offline/ may import only lib/, hooks/, auth/, api/",
  ]);
  // Two folders on one layer import neither each other.
  expect(layerViolations(edges([["chat/ChatPanel.tsx", "station/station-api.ts"]]), src)).toHaveLength(1);
  expect(layerViolations(edges([["lib/notify.ts", "api/client.ts"]]), src)).toHaveLength(1);
});

test("buttons sit below the features that draw with them", () => {
  expect(folderOf("components/ui/Button.tsx")).toBe("components/ui");
  expect(layerViolations(edges([["chat/ChatPanel.tsx", "components/ui/Button.tsx"]]), src)).toEqual([]);
  expect(layerViolations(edges([["components/ui/Icon.tsx", "components/layout/nav.ts"]]), src)).toHaveLength(1);
});

test("tests and the entry files may import any layer; a folder with no layer is named", () => {
  expect(layerViolations(edges([["offline/app/integration.test.tsx", "screens/VotePage.tsx"], ["main.tsx", "data/outcomes.ts"], ["test/render.tsx", "components/AppToaster.tsx"]]), src)).toEqual([]);
  expect(layerViolations(edges([["widgets/Clock.tsx", "lib/format.ts"]]), src)).toEqual([
    "src/widgets/Clock.tsx imports src/lib/format.ts: src/widgets/ has no layer (add it to PWA_LAYERS in scripts/layers.mjs)",
  ]);
});
