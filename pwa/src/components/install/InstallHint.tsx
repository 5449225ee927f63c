/**
 * How to put CSC E-Voting on the home screen, for browsers without an install prompt (Safari
 * on iPhone and iPad above all). In the page's flow, never over it; shown until dismissed.
 * The installed app keeps its own storage, apart from Safari's, hence: sign in there.
 */
import { useState } from "react";
import { currentInstallEnvironment, dismissInstallHint, installHintFor } from "./install-hint";

export function InstallHint() {
  const [hint, setHint] = useState(() => installHintFor(currentInstallEnvironment()));
  if (!hint) return null;
  const dismiss = () => {
    dismissInstallHint();
    setHint(null);
  };
  return (
    <section aria-labelledby="install-hint-title" data-testid="install-hint" className="rounded-lg border border-indigo-200 bg-indigo-50 px-4 py-3 text-sm text-indigo-950">
      <h2 id="install-hint-title" className="font-semibold">
        Add CSC E-Voting to your home screen
      </h2>
      <ol className="mt-2 list-decimal space-y-1 pl-5">
        {hint === "ios" ? (
          <>
            <li>
              Tap the Share button{" "}
              <svg aria-hidden="true" viewBox="0 0 24 24" className="inline size-4 align-text-bottom" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
                <path d="M12 3v12M8 7l4-4 4 4M6 11H5a1 1 0 0 0-1 1v8a1 1 0 0 0 1 1h14a1 1 0 0 0 1-1v-8a1 1 0 0 0-1-1h-1" />
              </svg>{" "}
              in Safari.
            </li>
            <li>Choose &apos;Add to Home Screen&apos;, then &apos;Add&apos;.</li>
          </>
        ) : (
          <li>Open your browser&apos;s menu and choose &apos;Add to Home screen&apos; or &apos;Install&apos;.</li>
        )}
        <li>Open CSC E-Voting from your home screen and sign in there: the installed app does not share this browser&apos;s storage.</li>
      </ol>
      <button
        type="button"
        onClick={dismiss}
        className="mt-3 rounded-md px-2 py-1 font-medium text-indigo-800 underline underline-offset-2 hover:bg-indigo-100 focus-visible:outline-2 focus-visible:outline-indigo-600"
      >
        Dismiss
      </button>
    </section>
  );
}
