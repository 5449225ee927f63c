// The offline store needs a global indexedDB; jsdom has none.
import "fake-indexeddb/auto";
import "@testing-library/jest-dom/vitest";
import { cleanup } from "@testing-library/react";
import { toast } from "sonner";
import { afterAll, afterEach, vi } from "vitest";
import { session } from "../auth/session";
import { loadOffline } from "../offline/app/load";

// jsdom has no matchMedia; sonner reads it for the theme.
if (!window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    }) as MediaQueryList;
}

afterEach(() => {
  cleanup();
  // sonner's toast store is module-level: a toast still active when a test ends would be replayed
  // into the next test's Toaster (two "Login successful!" when LoginPage's tests run shuffled).
  toast.dismiss();
  session.clear();
  localStorage.clear();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

// The app loads the device store's chunk when the page is idle, or when a read fails: in a
// loaded run that import can still be under way when a file's last test ends. Wait for it, so
// it never lands in a torn-down environment (an unhandled error that fails the whole run).
afterAll(() =>
  loadOffline().then(
    () => undefined,
    () => undefined,
  ),
);
