import { useState, type FormEvent } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { emailUpdateSchema, messages, type UserProfile } from "@evoting/shared";
import { api } from "../../api/client";
import { queryKeys } from "../../data/queries";
import { session } from "../../auth/session";
import { notifyError, notifySuccess } from "../../lib/notify";
import { Button } from "../../components/ui/Button";
import { NeedsNetwork } from "../../components/NeedsNetwork";
import { useOnline } from "../../hooks/use-online";
import { Card, CardHeader } from "../../components/ui/Card";
import { TextField } from "../../components/ui/Field";

export function EmailForm({ currentEmail }: { currentEmail: string | null }) {
  const online = useOnline();
  const client = useQueryClient();
  const [email, setEmail] = useState("");
  const [error, setError] = useState<string>();

  const update = useMutation({
    mutationFn: api.updateEmail,
    onSuccess: (answer, sent) => {
      const next = answer?.email ?? sent;
      session.updateUser({ email: next });
      client.setQueryData<UserProfile>(queryKeys.profile, (p) => (p ? { ...p, email: next } : p));
      setEmail("");
      notifySuccess(messages.updateEmailSuccess);
    },
    onError: (e) => notifyError(e, messages.updateEmailFailed),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = emailUpdateSchema.safeParse({ email });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return;
    }
    setError(undefined);
    update.mutate(parsed.data.email);
  };

  return (
    <Card>
      <CardHeader title="Email Address" description={currentEmail ? `Current: ${currentEmail}` : "Add your university email address."} />
      <form noValidate onSubmit={submit} className="space-y-4 px-5 py-4">
        <NeedsNetwork online={online} />
        <TextField
          label="Email"
          type="email"
          name="email"
          autoComplete="email"
          placeholder="yourname@uniport.edu.ng"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          error={error}
        />
        <Button type="submit" disabled={update.isPending || !online}>
          {update.isPending ? "Updating..." : "Update Email"}
        </Button>
      </form>
    </Card>
  );
}
