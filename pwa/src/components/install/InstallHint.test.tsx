import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, test, vi } from "vitest";
import { InstallHint } from "./InstallHint";
import { INSTALL_HINT_KEY, installHintFor, type InstallEnvironment } from "./install-hint";

const IPHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.5 Mobile/15E148 Safari/604.1";
const IPAD = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.5 Safari/605.1.15";
const FIREFOX_ANDROID = "Mozilla/5.0 (Android 15; Mobile; rv:140.0) Gecko/140.0 Firefox/140.0";
const DESKTOP_FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:153.0) Gecko/20100101 Firefox/153.0";

const env = (patch: Partial<InstallEnvironment>): InstallEnvironment => ({
  userAgent: IPHONE,
  maxTouchPoints: 5,
  standalone: false,
  installPrompt: false,
  dismissed: false,
  ...patch,
});

describe("when the home-screen steps show", () => {
  test("Safari on iPhone, and on an iPad that calls itself a Mac: the Share steps", () => {
    expect(installHintFor(env({}))).toBe("ios");
    expect(installHintFor(env({ userAgent: IPAD, maxTouchPoints: 5 }))).toBe("ios");
  });

  test("another phone browser without an install prompt: the menu step", () => {
    expect(installHintFor(env({ userAgent: FIREFOX_ANDROID }))).toBe("menu");
  });

  test("never inside the installed app, once dismissed, where the browser prompts itself, or on a desktop", () => {
    expect(installHintFor(env({ standalone: true }))).toBeNull();
    expect(installHintFor(env({ dismissed: true }))).toBeNull();
    expect(installHintFor(env({ userAgent: FIREFOX_ANDROID, installPrompt: true }))).toBeNull();
    expect(installHintFor(env({ userAgent: IPAD, maxTouchPoints: 0 }))).toBeNull(); // a real Mac
    expect(installHintFor(env({ userAgent: DESKTOP_FIREFOX, maxTouchPoints: 0 }))).toBeNull();
  });
});

describe("InstallHint", () => {
  afterEach(() => {
    vi.restoreAllMocks();
    localStorage.clear();
    delete (navigator as Navigator & { standalone?: boolean }).standalone;
  });

  const asIPhone = () => vi.spyOn(navigator, "userAgent", "get").mockReturnValue(IPHONE);

  test("on an iPhone: the Share steps and the advice to sign in inside the installed app; dismissed for good", async () => {
    asIPhone();
    const { unmount } = render(<InstallHint />);
    const hint = screen.getByRole("region", { name: "Add CSC E-Voting to your home screen" });
    expect(hint).toHaveTextContent("Tap the Share button in Safari.");
    expect(hint).toHaveTextContent("Choose 'Add to Home Screen', then 'Add'.");
    expect(hint).toHaveTextContent("sign in there: the installed app does not share this browser's storage.");

    await userEvent.click(screen.getByRole("button", { name: "Dismiss" }));
    expect(screen.queryByRole("region", { name: "Add CSC E-Voting to your home screen" })).toBeNull();
    expect(localStorage.getItem(INSTALL_HINT_KEY)).toBe("1");
    unmount();
    render(<InstallHint />);
    expect(screen.queryByTestId("install-hint")).toBeNull();
  });

  test("not in the app opened from the home screen (navigator.standalone)", () => {
    asIPhone();
    (navigator as Navigator & { standalone?: boolean }).standalone = true;
    render(<InstallHint />);
    expect(screen.queryByTestId("install-hint")).toBeNull();
  });

  test("not on a desktop browser", () => {
    vi.spyOn(navigator, "userAgent", "get").mockReturnValue(DESKTOP_FIREFOX);
    render(<InstallHint />);
    expect(screen.queryByTestId("install-hint")).toBeNull();
  });
});
