/**
 * 'Logout' when the device store does not answer (WebKit's has been seen to stall for many
 * seconds): the voter is still signed out, within the time limit, and nothing the store may
 * hold is wiped, so a vote still waiting there is sent when this voter signs in again.
 */
import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { expect, test, vi } from "vitest";
import type { UserProfile } from "@evoting/shared";
import { mockFetch } from "../test/fetch-mock";
import { LogoutScreen } from "../test/logout-screen";
import { renderRoute } from "../test/render";
import { LOGOUT_STORE_LIMIT_MS } from "./device-data";
import { session } from "../auth/session";

const signedOut = vi.fn();
vi.mock("../offline/app/load", () => ({
  loadOffline: () =>
    Promise.resolve({
      pendingVotes: () => new Promise(() => undefined),
      getOffline: () => ({ signedOut }),
    }),
}));

const user: UserProfile = { _id: "u1", name: "Chidi", role: "voter", matricNumber: "2021/5570101", email: null, hasPassword: false };

test("a store that never answers does not keep the voter signed in, and loses nothing it holds", async () => {
  mockFetch({ "POST /api/auth/logout": () => new Response(null, { status: 204 }) });
  session.signIn("tok", user);
  renderRoute(LogoutScreen, "/");
  const started = Date.now();
  await userEvent.setup().click(await screen.findByRole("button", { name: "Logout" }));
  await waitFor(() => expect(session.get()).toBeNull(), { timeout: LOGOUT_STORE_LIMIT_MS + 2_000 });
  expect(Date.now() - started).toBeGreaterThanOrEqual(LOGOUT_STORE_LIMIT_MS - 50);
  expect(await screen.findByTestId("elsewhere")).toBeInTheDocument();
  // No 'forget everything' (signedOut(userId, true)) was asked of the store.
  expect(signedOut).not.toHaveBeenCalledWith("u1", true);
});
