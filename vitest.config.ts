import { defineConfig } from "vitest/config";

// `npm test`: every unit, API and component test; no browser, no server started by hand.
// The browser suite has its own config (e2e/vitest.config.ts).
export default defineConfig({
  test: {
    // Vitest's default is one worker fewer than the cores: on a 2-core machine, one file at a
    // time, while a test waiting on its server, a child process or a timer leaves a core idle.
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: "node",
          environment: "node",
          include: ["shared/src/**/*.test.ts", "api/src/**/*.test.ts", "bench/**/*.test.ts", "pwa/build/**/*.test.ts", "scripts/**/*.test.mjs"],
          // Scratch copies made by benchmarks are not the project's tests.
          exclude: ["**/node_modules/**", "**/.tmp/**"],
          testTimeout: 30_000,
          globalSetup: ["./api/src/test/migrated-database.ts"],
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
