import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const preactFile = (path: string) => fileURLToPath(new URL(`./node_modules/preact/${path}`, import.meta.url));

// `npm test`: every unit, API and component test; no browser, no server started by hand.
// The browser suite has its own config (e2e/vitest.config.ts).
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "node",
          environment: "node",
          include: ["shared/src/**/*.test.ts", "api/src/**/*.test.ts", "bench/**/*.test.ts", "pwa/build/**/*.test.ts"],
          // Scratch copies made by benchmarks are not the project's tests.
          exclude: ["**/node_modules/**", "**/.tmp/**"],
          testTimeout: 30_000,
        },
      },
      {
        extends: "./pwa/vite.config.ts",
        test: {
          name: "pwa",
          environment: "jsdom",
          include: ["pwa/src/**/*.test.{ts,tsx}"],
          setupFiles: ["./pwa/src/test/setup.ts"],
          testTimeout: 20_000,
          // Libraries that import React are run through Vite, so the aliases below reach them.
          server: { deps: { inline: [/@testing-library[\\/]react/, /@tanstack[\\/]react-/, /@radix-ui/, /sonner/, /react-remove-scroll/, /use-sidecar/, /use-callback-ref/] } },
        },
        resolve: {
          // One copy of Preact in the tests, as in the build: `use-sync-external-store` is CommonJS
          // and Node `require`s Preact's CommonJS files, so everything else imports those too.
          // Two copies (one per format) would keep hooks apart.
          alias: [
            { find: /^@testing-library\/react$/, replacement: "@testing-library/react/dist/@testing-library/react.esm.js" },
            { find: /^react-dom\/test-utils$/, replacement: preactFile("test-utils/dist/testUtils.js") },
            { find: /^react(-dom)?\/jsx-(dev-)?runtime$/, replacement: preactFile("compat/jsx-runtime.js") },
            { find: /^react-dom\/client$/, replacement: preactFile("compat/client.js") },
            { find: /^react(-dom)?$/, replacement: preactFile("compat/dist/compat.js") },
            { find: /^preact\/hooks$/, replacement: preactFile("hooks/dist/hooks.js") },
            { find: /^preact$/, replacement: preactFile("dist/preact.js") },
          ],
        },
      },
    ],
  },
});
