import type { FormEvent, ReactNode } from "react";
import * as Dialog from "@radix-ui/react-dialog";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { invalidateElectionData } from "../../data/queries";
import { notifyError, notifySuccess } from "../../lib/notify";
import { Button } from "../ui/Button";
import { useReturnFocus } from "./use-return-focus";

interface FormDialogProps {
  open: boolean;
  title: string;
  submitLabel: string;
  pendingLabel: string;
  pending: boolean;
  onSubmit: () => void;
  onOpenChange: (open: boolean) => void;
  children: ReactNode;
}

/**
 * An edit form in a Radix dialog: traps focus, closes on Escape, returns focus to
 * the row's Edit button, and cannot be dismissed while saving.
 */
export function FormDialog({ open, title, submitLabel, pendingLabel, pending, onSubmit, onOpenChange, children }: FormDialogProps) {
  const returnFocus = useReturnFocus();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!pending) onSubmit();
  };
  return (
    <Dialog.Root open={open} onOpenChange={(next) => !pending && onOpenChange(next)}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-slate-900/50" />
        <Dialog.Content
          aria-describedby={undefined}
          {...returnFocus}
          className="fixed left-1/2 top-1/2 z-50 max-h-[calc(100dvh-2rem)] w-[calc(100vw-2rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-2xl bg-white p-6 shadow-2xl focus:outline-none"
        >
          <Dialog.Title className="text-lg font-semibold text-slate-900">{title}</Dialog.Title>
          <form noValidate onSubmit={submit} className="mt-4 space-y-5">
            {children}
            <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
              <Dialog.Close asChild>
                <Button variant="secondary" disabled={pending}>
                  Cancel
                </Button>
              </Dialog.Close>
              <Button type="submit" disabled={pending}>
                {pending ? pendingLabel : submitLabel}
              </Button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** An edit dialog's save: toasts its outcome, refreshes every list of positions and candidates, closes on success. */
export function useEditMutation<V>(save: (values: V) => Promise<unknown>, success: string, failed: string, onClose: () => void) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: save,
    onSuccess: () => {
      notifySuccess(success);
      void invalidateElectionData(client);
      onClose();
    },
    onError: (e) => notifyError(e, failed),
  });
}
