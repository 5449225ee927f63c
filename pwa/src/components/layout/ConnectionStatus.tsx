import { useSyncExternalStore } from "react";
import { getAppShell } from "../../offline/app/shell";
import { useOnline } from "../../hooks/use-online";
import { cx } from "../../lib/cx";
import { buttonClass } from "../ui/Button";
import { Icon } from "../ui/Icon";

/** The top bar's online/offline indicator; the word is always there for screen readers. */
export function ConnectionStatus() {
  const online = useOnline();
  return (
    <span
      data-testid="connection-status"
      className={cx(
        "inline-flex items-center gap-1.5 rounded-full px-2.5 py-1 text-xs font-semibold",
        online ? "text-green-800" : "bg-amber-100 text-amber-900 ring-1 ring-inset ring-amber-300",
      )}
    >
      <span aria-hidden="true" className={cx("size-2 rounded-full", online ? "bg-green-600" : "bg-amber-600")} />
      <span className={online ? "sr-only sm:not-sr-only" : undefined}>{online ? "Online" : "Offline"}</span>
    </span>
  );
}

/** 'Install app', shown only when the browser offered installation. */
export function InstallButton() {
  const shell = getAppShell();
  const { canInstall } = useSyncExternalStore(shell.state.subscribe, shell.state.getSnapshot, shell.state.getSnapshot);
  if (!canInstall) return null;
  return (
    // On a phone the top bar has room for the icon only; the name stays for screen readers.
    <button type="button" className={buttonClass("secondary", "sm", "max-sm:w-9 max-sm:px-0")} onClick={() => void shell.promptInstall()}>
      <Icon name="download" className="size-4 sm:hidden" />
      <span className="sr-only sm:not-sr-only">Install app</span>
    </button>
  );
}
