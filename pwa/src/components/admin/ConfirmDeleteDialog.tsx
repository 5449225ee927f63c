import type { ReactNode } from "react";
import * as Dialog from "@radix-ui/react-dialog";
import { Button } from "../ui/Button";
import { Icon } from "../ui/Icon";
import { useReturnFocus } from "./use-return-focus";

interface ConfirmDeleteDialogProps {
  open: boolean;
  title: string;
  confirmLabel: string;
  /** The confirm button while pending; the baseline's delete dialogs (docs/product.md) say 'Deleting...'. */
  pendingLabel?: string;
  pending: boolean;
  onConfirm: () => void;
  onOpenChange: (open: boolean) => void;
  /** A confirm that changes nothing irreversibly shows a clock and a primary button instead. */
  tone?: "danger" | "change";
  /** Nothing to confirm (the server would refuse): only a button to close the dialog. */
  refused?: boolean;
  children: ReactNode;
}

/** A Radix dialog: traps focus, closes on Escape or outside click, returns focus to the trigger. */
export function ConfirmDeleteDialog({ open, title, confirmLabel, pendingLabel = "Deleting...", pending, onConfirm, onOpenChange, tone = "danger", refused = false, children }: ConfirmDeleteDialogProps) {
  const returnFocus = useReturnFocus();
  return (
    <Dialog.Root open={open} onOpenChange={(next) => !pending && onOpenChange(next)}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-slate-900/50" />
        <Dialog.Content
          {...returnFocus}
          className="fixed left-1/2 top-1/2 z-50 w-[calc(100vw-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-2xl bg-white p-6 shadow-2xl focus:outline-none">
          <div className="flex items-start gap-4">
            <span className={`flex size-11 shrink-0 items-center justify-center rounded-full ${tone === "danger" ? "bg-red-100 text-red-700" : "bg-indigo-100 text-indigo-700"}`}>
              <Icon name={tone === "danger" ? "trash" : "clock"} />
            </span>
            <div className="min-w-0 flex-1">
              <Dialog.Title className="text-lg font-semibold text-slate-900">{title}</Dialog.Title>
              <Dialog.Description asChild>
                <div className="mt-2 space-y-2 text-sm text-slate-700">{children}</div>
              </Dialog.Description>
            </div>
          </div>
          <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Dialog.Close asChild>
              <Button variant="secondary" disabled={pending}>
                {refused ? "Close" : "Cancel"}
              </Button>
            </Dialog.Close>
            {!refused && (
              <Button variant={tone === "danger" ? "danger" : "primary"} onClick={onConfirm} disabled={pending}>
                {pending ? pendingLabel : confirmLabel}
              </Button>
            )}
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
