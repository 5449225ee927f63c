import { defineConfig } from "vitest/config";

// `npm test`: every unit, API and component test; no browser, no server started by hand.
// The browser suite has its own config (e2e/vitest.config.ts).
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "node",
          environment: "node",
          include: ["shared/src/**/*.test.ts", "api/src/**/*.test.ts", "bench/**/*.test.ts", "pwa/build/**/*.test.ts", "scripts/**/*.test.mjs"],
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
        },
      },
    ],
  },
});
