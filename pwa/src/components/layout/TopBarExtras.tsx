/**
 * The top bar's widgets from later issues: the connection indicator and 'Install app'
 * (offline) and the chat button.
 */
import { ChatButton } from "../../chat/ChatButton";
import { useSession } from "../../auth/use-session";
import { ConnectionStatus, InstallButton } from "./ConnectionStatus";

export function TopBarExtras() {
  const current = useSession();
  return (
    <>
      <ConnectionStatus />
      <InstallButton />
      {/* Keyed by user so a different sign-in gets a fresh room (its own unread count and token). */}
      {current && <ChatButton key={current.user._id} user={current.user} />}
    </>
  );
}
