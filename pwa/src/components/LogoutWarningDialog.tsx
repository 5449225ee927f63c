import * as Dialog from "@radix-ui/react-dialog";
import { messages } from "@evoting/shared";
import { logoutWarning, useFinishLogout } from "../data/use-logout";
import { Button } from "./ui/Button";
import { Icon } from "./ui/Icon";

/**
 * Shown when 'Logout' is pressed while votes are still queued on this device: logging out
 * wipes them (a shared computer must not keep a voter's ballot), so the voter chooses.
 * 'Stay signed in' has the focus: the safe choice is the default one. Loaded only when needed
 * (LogoutWarning), so Radix's dialog stays out of the first load of /login.
 */
export default function LogoutWarningDialog({ queued }: { queued: number }) {
  const finish = useFinishLogout();
  return (
    <Dialog.Root open={queued > 0} onOpenChange={(open) => !open && logoutWarning.set(0)}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-slate-900/50" />
        <Dialog.Content
          role="alertdialog"
          className="fixed left-1/2 top-1/2 z-50 w-[calc(100vw-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-2xl bg-white p-6 shadow-2xl focus:outline-none"
        >
          <div className="flex items-start gap-4">
            <span className="flex size-11 shrink-0 items-center justify-center rounded-full bg-amber-100 text-amber-800">
              <Icon name="logout" />
            </span>
            <div className="min-w-0 flex-1">
              <Dialog.Title className="text-lg font-semibold text-slate-900">{messages.logoutQueuedTitle}</Dialog.Title>
              <Dialog.Description className="mt-2 text-sm text-slate-700">{messages.logoutQueuedVotes(queued)}</Dialog.Description>
            </div>
          </div>
          <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button variant="danger" onClick={() => finish()}>
              {messages.logoutAnyway}
            </Button>
            <Dialog.Close asChild>
              <Button variant="primary" autoFocus>
                {messages.logoutStay}
              </Button>
            </Dialog.Close>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
