/**
 * A reserved slot in the top bar for widgets of later issues (the online/offline indicator
 * and the chat button). It renders nothing until they exist.
 */
export function TopBarExtras() {
  return null;
}
