/**
 * The manage pages' delete flow: which row the admin is asked about, the delete request and its
 * toasts, and the props for `ConfirmDeleteDialog`. Offline, deleting is refused up front.
 */
import { useState } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { invalidateElectionData } from "../../data/queries";
import { notifyError, notifySuccess } from "../../lib/notify";
import { useOnline } from "../../hooks/use-online";

interface DeleteDialogOptions {
  request: (id: string) => Promise<unknown>;
  success: string;
  failed: string;
}

export function useDeleteDialog<T extends { _id: string }>({ request, success, failed }: DeleteDialogOptions) {
  const online = useOnline();
  const client = useQueryClient();
  const [selected, setSelected] = useState<T | null>(null);

  const remove = useMutation({
    mutationFn: request,
    onSuccess: () => {
      setSelected(null);
      notifySuccess(success);
      void invalidateElectionData(client);
    },
    onError: (e) => notifyError(e, failed),
  });

  const busy = remove.isPending || !online;
  return {
    online,
    selected,
    /** True while a delete is in flight or the browser is offline: row buttons and the dialog wait. */
    busy,
    ask: setSelected,
    dialog: {
      open: selected !== null,
      pending: busy,
      onOpenChange: (open: boolean) => {
        if (!open) setSelected(null);
      },
      onConfirm: () => {
        if (selected) remove.mutate(selected._id);
      },
    },
  };
}
