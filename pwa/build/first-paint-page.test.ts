import { describe, expect, test } from "vitest";
import { firstPaintPage, splashLogo } from "./first-paint-page";

type Bundle = Record<string, { type: "asset"; source: string } | { type: "chunk"; fileName: string; moduleIds: string[]; imports: string[] }>;

const page = `<html><head>
    <script type="module" crossorigin src="/assets/boot.js"></script>
    <link rel="stylesheet" crossorigin href="/assets/index-1.css">
  </head><body><div id="root"></div></body></html>`;

function bundle(css = "body{color:red}"): Bundle {
  return {
    "index.html": { type: "asset", source: page },
    "assets/index-1.css": { type: "asset", source: css },
    "assets/boot.js": { type: "chunk", fileName: "assets/boot.js", moduleIds: ["/app/pwa/src/boot.ts"], imports: ["assets/helper.js"] },
    "assets/helper.js": { type: "chunk", fileName: "assets/helper.js", moduleIds: ["vite/preload-helper.js"], imports: [] },
    "assets/app.js": { type: "chunk", fileName: "assets/app.js", moduleIds: ["/app/node_modules/react/index.js", "/app/pwa/src/main.tsx"], imports: ["assets/runtime.js", "assets/helper.js"] },
    "assets/runtime.js": { type: "chunk", fileName: "assets/runtime.js", moduleIds: ["rolldown:runtime"], imports: [] },
    "assets/vote.js": { type: "chunk", fileName: "assets/vote.js", moduleIds: ["/app/pwa/src/routes/vote.tsx"], imports: ["assets/app.js"] },
  };
}

function run(b: Bundle): string {
  const plugin = firstPaintPage();
  const hook = plugin.generateBundle as (this: unknown, options: unknown, bundle: Bundle) => void;
  hook.call({ error: (message: string) => { throw new Error(message); } }, {}, b);
  return (b["index.html"] as { source: string }).source;
}

describe("index.html for the first paint", () => {
  test("the stylesheet is inlined and no longer shipped as a file", () => {
    const b = bundle();
    const html = run(b);
    expect(html).toContain("<style>body{color:red}</style>");
    expect(html).not.toContain('rel="stylesheet"');
    expect(b["assets/index-1.css"]).toBeUndefined();
  });

  test("the app and what it imports are listed for the first script to request; routes are not; the script's own imports are preloaded", () => {
    const html = run(bundle());
    expect(html).toContain('<meta name="app-modules" content="/assets/app.js /assets/runtime.js">');
    expect(html).not.toContain("/assets/vote.js");
    // What the page's script imports itself is requested with it, not a round trip later...
    expect(html).toContain('<link rel="modulepreload" crossorigin href="/assets/helper.js">');
    // ...and nothing else downloads alongside the page: the app waits for the first paint.
    expect(html.match(/modulepreload/g)).toHaveLength(1);
    expect(html).not.toMatch(/app-modules" content="[^"]*helper/);
    // The first script is already in the page: not listed twice.
    expect(html.match(/assets\/boot\.js/g)).toHaveLength(1);
    expect(html.indexOf("app-modules")).toBeLessThan(html.indexOf("</head>"));
  });

  test("a stylesheet that cannot be inlined, or no app chunk, fails the build", () => {
    expect(() => run(bundle("a{}</style><script>x</script>"))).toThrow(/cannot inline assets\/index-1\.css/);
    const b = bundle();
    delete b["assets/app.js"];
    expect(() => run(b)).toThrow(/no chunk for src\/main\.tsx/);
  });
});

describe("the splash's logo", () => {
  const transform = splashLogo().transformIndexHtml as (html: string) => string;

  test("is drawn in the page, not loaded as an image", () => {
    const html = transform('<div id="root"><!-- splash-logo --><p>CSC E-Voting</p></div>');
    expect(html).toMatch(/^<div id="root"><svg viewBox="0 0 64 64" width="56" height="56" class="size-14" aria-hidden="true">.*<\/svg><p>/);
    expect(html).toContain('fill="url(#splash-logo)"');
    expect(html).not.toContain("<img");
  });

  test("a page without its place fails the build", () => {
    expect(() => transform("<div id=\"root\"></div>")).toThrow(/no <!-- splash-logo -->/);
  });
});
