import type { ReactNode } from "react";
import type { UseQueryResult } from "@tanstack/react-query";
import { Card } from "../ui/Card";
import { Button } from "../ui/Button";
import { Icon } from "../ui/Icon";
import { StateMessage } from "../ui/Spinner";
import { useCanWriteAdmin } from "../../auth/use-session";

interface ManageTableProps<T extends { _id: string }> {
  query: UseQueryResult<T[]>;
  loading: string;
  failed: string;
  empty: string;
  /** Column headings before the last, 'Actions' (the row's Delete button). */
  columns: string[];
  /** The table's minimum width (a Tailwind class), past which it scrolls sideways. */
  minWidth: string;
  caption?: ReactNode;
  /** The row's cells before its Actions cell. */
  cells: (item: T) => ReactNode;
  /** Names the row in its Delete button's accessible name. */
  name: (item: T) => string;
  deleteDisabled: boolean;
  onDelete: (item: T) => void;
  /** An 'Edit' button before Delete. */
  onEdit?: (item: T) => void;
}

/** A manage table's headings; 'Actions' (right-aligned) last when the viewer may act on rows. */
export function ManageTableHead({ columns, actions }: { columns: string[]; actions: boolean }) {
  return (
    <thead className="bg-slate-50 text-xs font-semibold uppercase tracking-wide text-slate-600">
      <tr>
        {[...columns, ...(actions ? ["Actions"] : [])].map((h) => (
          <th key={h} scope="col" className={`px-5 py-3 ${h === "Actions" ? "text-right" : ""}`}>
            {h}
          </th>
        ))}
      </tr>
    </thead>
  );
}

/** The admin's manage pages: a card with the loading, failed and empty states, or one row per item. */
export function ManageTable<T extends { _id: string }>({
  query,
  loading,
  failed,
  empty,
  columns,
  minWidth,
  caption,
  cells,
  name,
  deleteDisabled,
  onDelete,
  onEdit,
}: ManageTableProps<T>) {
  // Observers read the table; its Actions column is admins' only.
  const canWrite = useCanWriteAdmin();
  return (
    <Card className="overflow-hidden">
      {query.isPending ? (
        <StateMessage busy>{loading}</StateMessage>
      ) : query.isError ? (
        <StateMessage>{failed}</StateMessage>
      ) : query.data.length === 0 ? (
        <StateMessage>{empty}</StateMessage>
      ) : (
        <div className="overflow-x-auto">
          <table className={`w-full ${minWidth} text-left text-sm`}>
            {caption}
            <ManageTableHead columns={columns} actions={canWrite} />
            <tbody className="divide-y divide-slate-100">
              {query.data.map((item) => (
                <tr key={item._id} className="hover:bg-slate-50">
                  {cells(item)}
                  {canWrite && (
                    <td className="whitespace-nowrap px-5 py-3 text-right">
                      {onEdit && (
                        <Button variant="ghost" size="sm" aria-label={`Edit ${name(item)}`} onClick={() => onEdit(item)}>
                          Edit
                        </Button>
                      )}
                      <Button
                        variant="danger-ghost"
                        size="sm"
                        aria-label={`Delete ${name(item)}`}
                        disabled={deleteDisabled}
                        onClick={() => onDelete(item)}
                      >
                        <Icon name="trash" className="size-4" />
                        Delete
                      </Button>
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Card>
  );
}
