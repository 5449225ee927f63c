import { useEffect, useState } from "react";
import { messages, updateCandidateSchema, type Candidate } from "@evoting/shared";
import { electionApi } from "../../api/election";
import { fieldErrors, type FieldErrors } from "../../lib/form-errors";
import { FieldShell, ImageFileInput, TextField } from "../ui/Field";
import { ManifestoField } from "./ManifestoField";
import { FormDialog, useEditMutation } from "./FormDialog";

type Field = "name" | "manifesto" | "photo";

/** Manage Candidates' 'Edit': name, photo and manifesto (plain text). */
export function EditCandidateDialog({ candidate, onClose }: { candidate: Candidate | null; onClose: () => void }) {
  const [name, setName] = useState("");
  const [manifesto, setManifesto] = useState("");
  const [photo, setPhoto] = useState<File | null>(null);
  const [errors, setErrors] = useState<FieldErrors<Field>>({});
  useEffect(() => {
    setName(candidate?.name ?? "");
    setManifesto(candidate?.manifesto ?? "");
    setPhoto(null);
    setErrors({});
  }, [candidate]);

  const save = useEditMutation(
    (fields: { name: string; manifesto: string; photo: File | null }) => electionApi.updateCandidate(candidate!._id, fields),
    messages.updateCandidateSuccess,
    messages.updateCandidateFailed,
    onClose,
  );

  const submit = () => {
    const parsed = updateCandidateSchema.safeParse({ name, manifesto });
    const next: FieldErrors<Field> = parsed.success ? {} : fieldErrors<Field>(parsed.error);
    if (photo && !photo.type.startsWith("image/")) next.photo = messages.photoInvalid;
    setErrors(next);
    if (!parsed.success || next.photo) return;
    save.mutate({ name, manifesto, photo });
  };

  return (
    <FormDialog
      open={candidate !== null}
      title="Edit Candidate"
      submitLabel="Save Changes"
      pendingLabel="Saving..."
      pending={save.isPending}
      onSubmit={submit}
      onOpenChange={(open) => !open && onClose()}
    >
      <TextField label="Candidate Name" autoComplete="off" value={name} onChange={(e) => setName(e.target.value)} error={errors.name} />
      <FieldShell label="Candidate Photo" error={errors.photo} hint="Optional: choose a file only to replace the photo.">
        {(ids) => <ImageFileInput ids={ids} onFile={setPhoto} />}
      </FieldShell>
      <ManifestoField value={manifesto} onChange={setManifesto} error={errors.manifesto} />
    </FormDialog>
  );
}
