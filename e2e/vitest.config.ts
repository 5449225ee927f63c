import { defineConfig } from "vitest/config";

// `npm run test:e2e`: the browser suite. One real server on a temp database (global setup),
// Debian's Chromium driven by playwright-core, files run one after another.
export default defineConfig({
  test: {
    name: "e2e",
    root: new URL("..", import.meta.url).pathname,
    environment: "node",
    include: ["e2e/**/*.e2e.ts"],
    globalSetup: ["e2e/support/global-setup.ts"],
    fileParallelism: false,
    sequence: { concurrent: false },
    testTimeout: 90_000,
    hookTimeout: 180_000,
    reporters: ["verbose"],
  },
});
