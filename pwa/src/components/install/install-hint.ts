/**
 * When to show how to add the app to the home screen. Chromium offers its own install prompt
 * ('Install app' in the top bar); Safari never does, and on an iPhone every browser is
 * Safari's engine, so there the voter is shown the steps instead: once, until dismissed, and
 * never inside the installed app itself.
 */
export type InstallHint = "ios" | "menu" | null;

export interface InstallEnvironment {
  userAgent: string;
  maxTouchPoints: number;
  /** `navigator.standalone` (iOS) or `display-mode: standalone`: already the installed app. */
  standalone: boolean;
  /** The browser has `beforeinstallprompt`: its own prompt serves. */
  installPrompt: boolean;
  dismissed: boolean;
}

export const INSTALL_HINT_KEY = "evoting.installHintDismissed";

export function installHintFor(env: InstallEnvironment): InstallHint {
  if (env.standalone || env.dismissed || env.installPrompt) return null;
  const ua = env.userAgent;
  // iPadOS reports itself as a Mac; only its touch screen tells it apart.
  if (/iPhone|iPad|iPod/.test(ua) || (/Macintosh/.test(ua) && env.maxTouchPoints > 1)) return "ios";
  // Other phones without the prompt (Firefox on Android): the browser's menu has the entry.
  if (/Android|Mobile/.test(ua)) return "menu";
  return null;
}

/** The environment of this page. */
export function currentInstallEnvironment(): InstallEnvironment {
  let dismissed = false;
  try {
    dismissed = localStorage.getItem(INSTALL_HINT_KEY) === "1";
  } catch {
    // Storage blocked: show it; dismissing then lasts for this page only.
  }
  return {
    userAgent: navigator.userAgent,
    maxTouchPoints: navigator.maxTouchPoints ?? 0,
    standalone:
      (navigator as Navigator & { standalone?: boolean }).standalone === true ||
      (typeof matchMedia === "function" && matchMedia("(display-mode: standalone)").matches),
    installPrompt: "onbeforeinstallprompt" in window,
    dismissed,
  };
}

export function dismissInstallHint() {
  try {
    localStorage.setItem(INSTALL_HINT_KEY, "1");
  } catch {
    // See above.
  }
}
