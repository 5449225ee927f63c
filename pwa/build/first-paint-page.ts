import type { Plugin } from "vite";
import { logoSvg } from "../src/components/layout/logo-drawing";

/**
 * index.html as the first paint wants it:
 * - the app's one stylesheet (cssCodeSplit is off) goes in as a <style> (the CSP allows inline
 *   styles, not inline scripts), so the splash paints as soon as the page arrives, with no
 *   second round trip for a render-blocking stylesheet on a slow network;
 * - the app's modules, which the small first script (src/boot.ts) imports only after that
 *   paint, are listed in a <meta name="app-modules">, which boot.ts requests all at once when
 *   it starts the app. Not as modulepreloads in the page: those download alongside the page
 *   itself, and Lighthouse's simulated slow network counted their bytes into the page's first
 *   and largest paint (decision 0018) and the page's own parsing into blocking
 *   time. On a shaped slow link (bench/first-visit.ts) the sign-in form comes no later.
 * - the page script's own static imports are modulepreloads: they are small, and without them
 *   each costs the first paint's script a round trip.
 * The page is gzipped and precached like any file.
 */
export function firstPaintPage(): Plugin {
  return {
    name: "evoting:first-paint-page",
    apply: "build",
    enforce: "post",
    generateBundle(_options, bundle) {
      const page = bundle["index.html"];
      if (page?.type !== "asset") return;
      let html = String(page.source);
      for (const [fileName, asset] of Object.entries(bundle)) {
        if (asset.type !== "asset" || !fileName.endsWith(".css")) continue;
        const css = String(asset.source);
        const link = `<link rel="stylesheet" crossorigin href="/${fileName}">`;
        if (!html.includes(link) || css.includes("</style")) this.error(`cannot inline ${fileName} into index.html`);
        html = html.replace(link, () => `<style>${css}</style>`);
        delete bundle[fileName];
      }
      const chunks = Object.values(bundle).filter((c) => c.type === "chunk");
      const app = chunks.find((c) => c.moduleIds.some((id) => id.endsWith("/src/main.tsx")));
      if (!app) this.error("no chunk for src/main.tsx");
      // The page's script and what it imports statically are loaded by then: not listed.
      const loaded = new Set<string>();
      const closure = (fileName: string, into: Set<string>) => {
        const chunk = bundle[fileName];
        if (into.has(fileName) || loaded.has(fileName) || chunk?.type !== "chunk") return;
        into.add(fileName);
        chunk.imports.forEach((f) => closure(f, into));
      };
      chunks.filter((c) => html.includes(`/${c.fileName}"`)).forEach((c) => closure(c.fileName, loaded));
      const preload = new Set<string>();
      closure(app.fileName, preload);
      const list = `<meta name="app-modules" content="${[...preload].map((f) => `/${f}`).join(" ")}">`;
      // The page script's own imports (Rolldown's runtime, Vite's preload helper: ~1 KB) are
      // requested with it, not a round trip after it.
      const script = chunks.find((c) => html.includes(`/${c.fileName}"`));
      const own = (script?.imports ?? []).map((f) => `<link rel="modulepreload" crossorigin href="/${f}">`);
      page.source = html.replace("</head>", () => [...own, list].map((tag) => `  ${tag}\n`).join("") + "  </head>");
    },
  };
}

/** index.html's splash gets the logo drawn in the page (src/components/layout/LogoMark.tsx says why). */
export function splashLogo(): Plugin {
  return {
    name: "evoting:splash-logo",
    transformIndexHtml(html) {
      if (!html.includes("<!-- splash-logo -->")) throw new Error("index.html has no <!-- splash-logo --> for the logo");
      return html.replace("<!-- splash-logo -->", () => logoSvg(56, "size-14", "splash-logo"));
    },
  };
}
