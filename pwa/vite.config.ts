import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";
import tailwindcss from "@tailwindcss/vite";
import { tanstackRouter } from "@tanstack/router-plugin/vite";
import { VitePWA } from "vite-plugin-pwa";
import { firstPaintPage, splashLogo } from "./build/first-paint-page";
import { voterPrecache } from "./build/voter-precache";
import { LOGIN_ROUTE, schemasGroup, voterScreensGroups } from "./build/voter-chunks";

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

// No `root` here: the root vitest config extends this file from the repository root, and
// `npm run build -w pwa` runs in pwa/, so Vite's default root (the cwd) is right for both.
// Plugin paths are absolute for the same reason.
/** V8's explicit compile hint, put before each script after minification (see `postBanner` below). */
const COMPILE_HINT = "//# allFunctionsCalledOnLoad";

export default defineConfig({
  plugins: [
    // Must run before react(): it generates the route tree and splits each route's
    // component into its own chunk, which keeps /login's first load small.
    tanstackRouter({
      target: "react",
      autoCodeSplitting: true,
      routesDirectory: here("./src/routes"),
      generatedRouteTree: here("./src/routeTree.gen.ts"),
    }),
    react(),
    tailwindcss(),
    splashLogo(),
    firstPaintPage(),
    // The service worker is irrelevant to component tests and slows them down.
    ...(process.env.VITEST
      ? []
      : [
          VitePWA({
            // Registration belongs to the offline module (pwa/src/offline), not to this file.
            injectRegister: false,
            registerType: "prompt",
            manifest: {
              name: "CSC E-Voting",
              short_name: "CSC E-Voting",
              description: "Department of Computer Science student elections",
              theme_color: "#4338ca",
              background_color: "#f8fafc",
              display: "standalone",
              start_url: "/",
              scope: "/",
              icons: [
                { src: "/pwa-192.png", sizes: "192x192", type: "image/png", purpose: "any" },
                { src: "/pwa-512.png", sizes: "512x512", type: "image/png", purpose: "any" },
                // Its own padded artwork: a launcher's mask crops the outer 10% of a maskable icon.
                { src: "/pwa-maskable-512.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
              ],
            },
            // Our own worker (src/sw.ts): the same precache, routes and caches as Workbox's
            // generated one, plus a parallel warm-up that makes the first visit offline-ready
            // in seconds on a slow link (bench/first-visit.ts).
            strategies: "injectManifest",
            srcDir: "src",
            filename: "sw.ts",
            // The install icons are not precached: a browser takes them at install, which is
            // online, and each would cost the first visit one more round trip in Workbox's
            // file-by-file pass. The page's own icon is (the tab shows it offline).
            includeManifestIcons: false,
            includeAssets: ["pwa-192.png"],
            injectManifest: {
              // Precache: code and markup, and the icon above.
              globPatterns: ["**/*.{js,css,html}"],
              // Only what the voter's screens load is precached; staff screens' chunks are
              // cached when first opened (build/voter-precache.ts). Fails the build over budget.
              manifestTransforms: [voterPrecache(here("./dist"))],
              // A classic worker: every browser that runs the PWA can start it.
              rollupFormat: "iife",
            },
          }),
        ]),
  ],
  server: {
    proxy: { "/api": "http://127.0.0.1:3000" },
  },
  // The Web Workers (the ballot's encryption, the Credential Authority's) are bundled on their
  // own; each runs its whole script as it starts, so it carries the same compile hint.
  worker: { rolldownOptions: { output: { postBanner: COMPILE_HINT } } },
  build: {
    target: "es2022",
    sourcemap: false,
    // No <link rel=modulepreload> per dependency when a route's chunk is imported: adding them
    // holds the main thread (decision 0018) in the task that loads
    // the route. The browser finds a chunk's imports as it parses it; after the first visit
    // the service worker serves them all from its cache.
    modulePreload: false,
    // One stylesheet for the whole app, inlined into index.html (build/first-paint-page.ts).
    cssCodeSplit: false,
    // Read by scripts/bundle-size.mjs to know which chunks a route loads.
    manifest: true,
    rolldownOptions: {
      output: {
        // V8's explicit compile hint (Chromium 136+; ignored elsewhere): each chunk's functions
        // are compiled on the thread that streams the script in, not on the main thread the
        // first time each is called. Nearly every function of a chunk the app loads runs while
        // the page starts. After minification, which would strip it as a comment.
        postBanner: COMPILE_HINT,
        codeSplitting: {
          // src/main.tsx with everything it imports statically is one chunk, as when it was the
          // entry (src/boot.ts imports it after the first paint): the routes share its modules.
          // Vite's preload helper stays out of it: src/boot.ts needs it to import the app, and
          // importing the app statically would run it before the first paint.
          groups: [
            { name: "preload-helper", test: /vite[\\/]preload-helper/, priority: 1 },
            // React (~200 KB) in a chunk of its own, which src/boot.ts runs a task before the app.
            { name: "react", test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/, priority: 2 },
            // The sign-in screen with it: every signed-out visit's first screen, whose shared
            // pieces (messages, fields) every other screen uses too; in the app, it costs /login
            // no round trip after the app's.
            { name: "app", test: (id: string) => /[\\/]src[\\/]main\.tsx$/.test(id) || LOGIN_ROUTE.test(id), priority: 1 },
            // zod with the shared schemas, loaded when a form is first used.
            { ...schemasGroup(), priority: 1 },
            // Every other voter screen in two chunks (build/voter-chunks.ts says why).
            ...voterScreensGroups(here(".")),
          ],
        },
      },
      treeshake: {
        // @evoting/shared is pure (constants, messages, schemas, maths), but its package does
        // not say so; without this, every zod schema and zod itself land in the entry chunk.
        moduleSideEffects: [{ test: /[\\/]shared[\\/]src[\\/]/, sideEffects: false }],
      },
    },
  },
});
