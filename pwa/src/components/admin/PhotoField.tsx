import { useEffect, useState, type Ref } from "react";
import { FieldShell, ImageFileInput } from "../ui/Field";
import { Icon } from "../ui/Icon";

interface PhotoFieldProps {
  label: string;
  hint: string;
  error?: string;
  file: File | null;
  onFile: (file: File | null) => void;
  inputRef?: Ref<HTMLInputElement>;
}

/** A photo chooser with a round preview of the chosen file: a candidate's or an applicant's. */
export function PhotoField({ label, hint, error, file, onFile, inputRef }: PhotoFieldProps) {
  const preview = usePreviewUrl(file);
  return (
    <FieldShell label={label} error={error} hint={hint}>
      {(ids) => (
        <div className="flex items-center gap-4">
          <div className="flex size-20 shrink-0 items-center justify-center overflow-hidden rounded-full border-2 border-dashed border-slate-300 bg-slate-50 text-slate-500">
            {preview ? <img src={preview} alt="Selected photo preview" className="size-full object-cover" /> : <Icon name="upload" className="size-6" />}
          </div>
          <ImageFileInput ids={ids} onFile={onFile} inputRef={inputRef} />
        </div>
      )}
    </FieldShell>
  );
}

/** An object URL for the chosen file, revoked when it changes or the field unmounts. */
function usePreviewUrl(file: File | null): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!file) {
      setUrl(null);
      return;
    }
    const next = URL.createObjectURL(file);
    setUrl(next);
    return () => URL.revokeObjectURL(next);
  }, [file]);
  return url;
}
