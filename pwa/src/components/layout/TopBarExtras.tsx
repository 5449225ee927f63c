/**
 * A reserved slot in the top bar for widgets of later issues: the chat button (issue 5) and,
 * later, the online/offline indicator.
 */
import { ChatButton } from "../../chat/ChatButton";
import { useSession } from "../../lib/use-session";

export function TopBarExtras() {
  const current = useSession();
  // Keyed by user so a different sign-in gets a fresh room (its own unread count and token).
  return current ? <ChatButton key={current.user._id} user={current.user} /> : null;
}
