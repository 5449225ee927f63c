import { useRef, useState, type FormEvent } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { createCandidateSchema, manifestoSchema, messages } from "@evoting/shared";
import { api } from "../../api/client";
import { adminPositionsQuery, invalidateElectionData } from "../../data/queries";
import { notifyError, notifySuccess } from "../../lib/notify";
import { fieldErrors, type FieldErrors } from "../../lib/form-errors";
import { PageHeader } from "../../components/ui/PageHeader";
import { Card } from "../../components/ui/Card";
import { Button } from "../../components/ui/Button";
import { NeedsNetwork } from "../../components/NeedsNetwork";
import { useOnline } from "../../hooks/use-online";
import { SelectField, TextField } from "../../components/ui/Field";
import { PhotoField } from "../../components/admin/PhotoField";
import { BackToAdminButton } from "../../components/admin/BackToAdminButton";
import { ManifestoField } from "../../components/admin/ManifestoField";

type Field = "name" | "positionId" | "photo" | "manifesto";

export function CreateCandidatePage() {
  const online = useOnline();
  const client = useQueryClient();
  const positions = useQuery(adminPositionsQuery());
  const [name, setName] = useState("");
  const [positionId, setPositionId] = useState("");
  const [photo, setPhoto] = useState<File | null>(null);
  const [manifesto, setManifesto] = useState("");
  const [errors, setErrors] = useState<FieldErrors<Field>>({});
  const fileInput = useRef<HTMLInputElement>(null);

  const create = useMutation({
    mutationFn: api.createCandidate,
    onSuccess: () => {
      setName("");
      setPositionId("");
      setPhoto(null);
      setManifesto("");
      if (fileInput.current) fileInput.current.value = "";
      notifySuccess(messages.createCandidateSuccess);
      void invalidateElectionData(client);
    },
    // On failure the form keeps everything the admin entered (docs/product.md, Screens).
    onError: (e) => notifyError(e, messages.createCandidateFailed),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = createCandidateSchema.safeParse({ name, positionId });
    const text = manifestoSchema.safeParse(manifesto);
    const next: FieldErrors<Field> = {
      ...(parsed.success ? {} : fieldErrors<Field>(parsed.error)),
      ...(text.success ? {} : { manifesto: text.error.issues[0]?.message }),
    };
    if (photo && !photo.type.startsWith("image/")) next.photo = messages.photoInvalid;
    setErrors(next);
    if (!parsed.success || !text.success || next.photo) return;
    create.mutate({ ...parsed.data, photo, manifesto });
  };

  return (
    <div className="mx-auto max-w-2xl">
      <PageHeader title="Create Candidates" description="Add new candidates to election positions" actions={<BackToAdminButton />} />
      <Card>
        <form noValidate onSubmit={submit} className="space-y-5 p-6">
          <NeedsNetwork online={online} />
          <TextField label="Candidate Name" name="name" autoComplete="off" value={name} onChange={(e) => setName(e.target.value)} error={errors.name} />

          <SelectField
            label="Position"
            name="positionId"
            error={errors.positionId}
            value={positionId}
            onChange={(e) => setPositionId(e.target.value)}
            disabled={positions.isPending}
          >
            <option value="">{positions.isPending ? "Loading positions..." : "Select a position"}</option>
            {/* A referendum is a question with no candidates. */}
            {positions.data?.filter((p) => p.method !== "referendum").map((p) => (
              <option key={p._id} value={p._id}>
                {p.title}
              </option>
            ))}
          </SelectField>

          <PhotoField label="Candidate Photo" hint="Optional. PNG, JPEG, WebP or GIF." error={errors.photo} file={photo} onFile={setPhoto} inputRef={fileInput} />

          <ManifestoField value={manifesto} onChange={setManifesto} error={errors.manifesto} />

          <Button type="submit" size="lg" className="w-full sm:w-auto" disabled={create.isPending || !online}>
            {create.isPending ? "Creating..." : "Create Candidate"}
          </Button>
        </form>
      </Card>
    </div>
  );
}

