import { useRef } from "react";

/**
 * Dialogs opened from a row button, not a Dialog.Trigger, leave Radix not knowing where focus
 * came from: remember it on open and return there on close. Spread onto `Dialog.Content`.
 */
export function useReturnFocus() {
  const returnFocus = useRef<HTMLElement | null>(null);
  return {
    onOpenAutoFocus: () => {
      returnFocus.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    },
    onCloseAutoFocus: (event: Event) => {
      const target = returnFocus.current;
      if (target?.isConnected) {
        event.preventDefault();
        target.focus();
      }
    },
  };
}
