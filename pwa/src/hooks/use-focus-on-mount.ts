import { useEffect, useRef } from "react";

/**
 * A ref that gives its element the focus when it mounts, if `autoFocus` is set: what React did
 * for the `autoFocus` prop. Preact (the app's React, see docs/decisions) only writes the
 * attribute, which a browser honours once per page load, not for a dialog's default button.
 * An effect, so the element is in the document and a dialog's focus trap, whose own effect runs
 * after its children's, finds the focus already inside and leaves it there.
 */
export function useFocusOnMount<T extends HTMLElement>(autoFocus: boolean | undefined) {
  const ref = useRef<T>(null);
  const focusOnMount = useRef(autoFocus);
  useEffect(() => {
    if (focusOnMount.current) ref.current?.focus();
  }, []);
  return ref;
}
