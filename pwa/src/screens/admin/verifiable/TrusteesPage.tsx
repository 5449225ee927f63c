/**
 * Trustees (docs/verifiable.md): who holds the decryption key of the verifiable positions.
 * Each trustee generates their key in their own browser ('Generate my key'): the private key
 * is offered as a file and never sent; only the public key (with its proof of knowledge) is
 * registered. Admins may also make the server a trustee. Observers (a candidate's agent) may
 * register their own key; trustees freeze at the first lock.
 */
import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { canWriteAdmin } from "@evoting/shared";
import { generateTrusteeKey } from "@evoting/shared/belenios";
import { errorMessage } from "../../../api/client";
import { verifiableApi, type Trustee } from "../../../api/verifiable-admin";
import { trusteesKey, trusteesQuery, verifiablePositionsQuery } from "../../../data/verifiable-admin";
import { useSession } from "../../../auth/use-session";
import { useOnline } from "../../../hooks/use-online";
import { notifyError, notifySuccess } from "../../../lib/notify";
import { saveFile } from "../../../lib/save-file";
import { BackToAdminButton } from "../../../components/admin/BackToAdminButton";
import { ConfirmDeleteDialog } from "../../../components/admin/ConfirmDeleteDialog";
import { Badge } from "../../../components/ui/Badge";
import { Button } from "../../../components/ui/Button";
import { Card, CardHeader } from "../../../components/ui/Card";
import { TextAreaField, TextField } from "../../../components/ui/Field";
import { PageHeader } from "../../../components/ui/PageHeader";
import { StateMessage } from "../../../components/ui/Spinner";
import { VerifiablePositionsCard } from "./VerifiablePositionsCard";

const slug = (name: string) => name.trim().toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "") || "trustee";

export function TrusteesPage() {
  const user = useSession()?.user;
  const canWrite = canWriteAdmin(user?.role);
  const trustees = useQuery(trusteesQuery());
  const positions = useQuery(verifiablePositionsQuery());
  const frozen = positions.data?.some((p) => p.belenios!.state !== "setup") ?? false;
  const mine = trustees.data?.find((t) => t.mine);
  return (
    <div className="space-y-6">
      <PageHeader
        title="Trustees"
        description="Trustees hold the key that decrypts the verifiable positions' tally. Every trustee must decrypt after the close, with their own private key file."
        actions={<BackToAdminButton />}
      />
      <TrusteeList query={trustees} frozen={frozen} />
      {frozen ? null : trustees.isSuccess && (!mine || canWrite) ? (
        <>
          <GenerateKeyCard defaultName={mine ? "" : (user?.name ?? "")} />
          <ToolKeyCard />
        </>
      ) : mine ? (
        <p className="rounded-lg bg-slate-100 px-4 py-3 text-sm text-slate-700">You are trustee {mine.id}. Keep your private key file safe until the count.</p>
      ) : null}
      {canWrite && !frozen && trustees.isSuccess && !trustees.data.some((t) => t.server) && <ServerTrusteeCard />}
      <VerifiablePositionsCard canWrite={canWrite} />
    </div>
  );
}

function TrusteeList({ query, frozen }: { query: ReturnType<typeof useQuery<Trustee[]>>; frozen: boolean }) {
  return (
    <Card>
      <CardHeader
        title="Trustees"
        description={frozen ? "Frozen: a verifiable position is locked, so trustees can no longer change." : "Trustees can change until the first verifiable position is locked."}
        action={frozen ? <Badge tone="blue">Frozen</Badge> : undefined}
      />
      {query.isPending ? (
        <StateMessage busy>Loading trustees...</StateMessage>
      ) : query.isError ? (
        <StateMessage>{errorMessage(query.error, "Failed to load the trustees")}</StateMessage>
      ) : query.data.length === 0 ? (
        <StateMessage>No trustee yet.</StateMessage>
      ) : (
        <ol aria-label="Trustees" className="divide-y divide-slate-100 px-5">
          {query.data.map((t) => (
            <li key={t.id} className="flex flex-wrap items-center gap-3 py-3 text-sm">
              <span className="font-mono text-slate-600">{t.id}.</span>
              <span className="font-semibold text-slate-900">{t.name}</span>
              {t.server && <Badge tone="gray">The server</Badge>}
              {t.mine && !t.server && <Badge tone="indigo">You</Badge>}
            </li>
          ))}
        </ol>
      )}
    </Card>
  );
}

function GenerateKeyCard({ defaultName }: { defaultName: string }) {
  const online = useOnline();
  const client = useQueryClient();
  const [name, setName] = useState(defaultName);
  const [nameError, setNameError] = useState<string>();
  const [key, setKey] = useState<{ privateKey: string; publicKey: string } | null>(null);
  const [saved, setSaved] = useState(false);
  const fileName = `${slug(name)}.privkey`;
  const download = (privateKey: string) => saveFile(new Blob([`${privateKey}\n`], { type: "application/json" }), fileName);
  const register = useMutation({
    mutationFn: () => verifiableApi.addTrustee({ name: name.trim(), publicKey: key!.publicKey }),
    onSuccess: (t) => {
      // The private key stays only in the file the trustee saved.
      setKey(null);
      setSaved(false);
      setName("");
      notifySuccess(`${t.name} is trustee ${t.id}`);
      void client.invalidateQueries({ queryKey: trusteesKey });
    },
    onError: (e) => notifyError(e, "Failed to register the key"),
  });
  const generate = () => {
    if (!name.trim()) {
      setNameError("Enter the trustee's name.");
      return;
    }
    setNameError(undefined);
    const made = generateTrusteeKey();
    setKey(made);
    setSaved(false);
    download(made.privateKey);
  };
  return (
    <Card>
      <CardHeader
        title="Generate my key"
        description="Your private key is made in this browser and saved as a file on this device. It is never sent to the server: keep the file safe, as the count cannot finish without it."
      />
      <div className="space-y-4 px-5 py-4">
        <TextField label="Trustee Name" autoComplete="off" value={name} error={nameError} disabled={key !== null} onChange={(e) => setName(e.target.value)} />
        {key === null ? (
          <Button onClick={generate}>Generate my key</Button>
        ) : (
          <div className="space-y-4">
            <p role="status" className="rounded-lg bg-indigo-50 px-3 py-2 text-sm text-indigo-900">
              Your key is ready. Your browser is saving <strong>{fileName}</strong>: keep it safe, then register your public key.
            </p>
            <Button variant="secondary" onClick={() => download(key.privateKey)}>
              Download the private key file again
            </Button>
            <label className="flex items-center gap-3 text-sm font-medium text-slate-800">
              <input type="checkbox" className="size-4 accent-indigo-600" checked={saved} onChange={(e) => setSaved(e.target.checked)} />I have saved my private key file
            </label>
            <div className="flex flex-wrap gap-2">
              <Button disabled={!saved || !online || register.isPending} onClick={() => register.mutate()}>
                {register.isPending ? "Registering..." : "Register my key"}
              </Button>
              <Button variant="ghost" disabled={register.isPending} onClick={() => setKey(null)}>
                Cancel
              </Button>
            </div>
          </div>
        )}
      </div>
    </Card>
  );
}

/** A key made with `belenios-tool setup generate-trustee-key`: its `.pubkey` line, pasted. */
function ToolKeyCard() {
  const online = useOnline();
  const client = useQueryClient();
  const [name, setName] = useState("");
  const [publicKey, setPublicKey] = useState("");
  const [errors, setErrors] = useState<{ name?: string; publicKey?: string }>({});
  const add = useMutation({
    mutationFn: () => verifiableApi.addTrustee({ name: name.trim(), publicKey: publicKey.trim() }),
    onSuccess: (t) => {
      setName("");
      setPublicKey("");
      notifySuccess(`${t.name} is trustee ${t.id}`);
      void client.invalidateQueries({ queryKey: trusteesKey });
    },
    onError: (e) => notifyError(e, "Failed to register the key"),
  });
  const submit = () => {
    const next = { name: name.trim() ? undefined : "Enter the trustee's name.", publicKey: publicKey.trim() ? undefined : "Paste the line of the .pubkey file." };
    setErrors(next);
    if (!next.name && !next.publicKey) add.mutate();
  };
  return (
    <Card>
      <details className="group">
        <summary className="focus-ring cursor-pointer px-5 py-4 text-sm font-semibold text-slate-900">Use a key made with belenios-tool</summary>
        <div className="space-y-4 border-t border-slate-100 px-5 py-4">
          <p className="text-sm text-slate-600">
            Run <code>belenios-tool setup generate-trustee-key --group BELENIOS-2048</code>, keep the <code>.privkey</code> file, and paste the one line of
            the <code>.pubkey</code> file here.
          </p>
          <TextField label="Name" autoComplete="off" value={name} error={errors.name} onChange={(e) => setName(e.target.value)} />
          <TextAreaField label="Public Key" rows={3} value={publicKey} error={errors.publicKey} onChange={(e) => setPublicKey(e.target.value)} />
          <Button variant="secondary" disabled={!online || add.isPending} onClick={submit}>
            {add.isPending ? "Registering..." : "Register this key"}
          </Button>
        </div>
      </details>
    </Card>
  );
}

function ServerTrusteeCard() {
  const online = useOnline();
  const client = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const add = useMutation({
    mutationFn: () => verifiableApi.addTrustee({ name: "The server", server: true }),
    onSuccess: () => {
      setConfirming(false);
      notifySuccess("The server is a trustee");
      void client.invalidateQueries({ queryKey: trusteesKey });
    },
    onError: (e) => {
      setConfirming(false);
      notifyError(e, "Failed to add the server as a trustee");
    },
  });
  return (
    <Card>
      <CardHeader
        title="The server as a trustee"
        description="The server's key comes from its ballot key and is never stored. It decrypts its share by itself after the close, so an election can run with no human trustee."
        action={
          <Button variant="secondary" disabled={!online} onClick={() => setConfirming(true)}>
            Add the server as a trustee
          </Button>
        }
      />
      <ConfirmDeleteDialog
        title="Add the Server"
        confirmLabel="Add"
        pendingLabel="Adding..."
        tone="change"
        open={confirming}
        pending={add.isPending}
        onOpenChange={setConfirming}
        onConfirm={() => add.mutate()}
      >
        <p>Make the server a trustee?</p>
        <p>If it is the only trustee, whoever runs the server can decrypt every ballot. With other trustees, none can decrypt without the rest.</p>
      </ConfirmDeleteDialog>
    </Card>
  );
}
