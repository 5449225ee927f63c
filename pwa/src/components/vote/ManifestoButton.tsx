import * as Dialog from "@radix-ui/react-dialog";
import { Button } from "../ui/Button";

/**
 * 'Read manifesto': the candidate's own words in a dialog. The text is rendered as
 * text (React escapes it), never as HTML; line breaks are kept.
 */
export function ManifestoButton({ name, manifesto, className }: { name: string; manifesto: string; className?: string }) {
  return (
    <Dialog.Root>
      <Dialog.Trigger asChild>
        <Button variant="ghost" size="sm" aria-label={`Read manifesto: ${name}`} className={className}>
          Read manifesto
        </Button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-slate-900/50" />
        <Dialog.Content className="fixed left-1/2 top-1/2 z-50 max-h-[calc(100dvh-2rem)] w-[calc(100vw-2rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-2xl bg-white p-6 shadow-2xl focus:outline-none">
          <Dialog.Title className="text-lg font-semibold text-slate-900">{name}: manifesto</Dialog.Title>
          <Dialog.Description asChild>
            <p className="mt-3 whitespace-pre-line break-words text-sm leading-relaxed text-slate-800">{manifesto}</p>
          </Dialog.Description>
          <div className="mt-6 flex justify-end">
            <Dialog.Close asChild>
              <Button variant="secondary">Close</Button>
            </Dialog.Close>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
