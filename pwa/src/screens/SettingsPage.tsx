import { useEffect } from "react";
import { useQuery } from "@tanstack/react-query";
import { messages } from "@evoting/shared";
import { profileQuery } from "../data/queries";
import { session } from "../auth/session";
import { useSession } from "../auth/use-session";
import { toast } from "sonner";
import { PageHeader } from "../components/ui/PageHeader";
import { Card, CardHeader } from "../components/ui/Card";
import { EmailForm } from "./settings/EmailForm";
import { PasswordForm } from "./settings/PasswordForm";

export function SettingsPage() {
  const current = useSession();
  const profile = useQuery(profileQuery());

  // The server's profile is the truth; keep the stored user in step with it.
  useEffect(() => {
    if (profile.data) session.updateUser(profile.data);
  }, [profile.data]);

  useEffect(() => {
    // Offline, the stored profile is shown and the forms say they need the network: no error toast.
    if (profile.isError && navigator.onLine) toast.error(messages.loadProfileFailed, { id: "profile-load" });
  }, [profile.isError]);

  const user = profile.data ?? current?.user;
  if (!user) return null;

  const rows = [
    ["Name", user.name],
    ["Matriculation Number", user.matricNumber],
    ["Email", user.email || "No email set"],
  ] as const;

  return (
    <div className="space-y-6">
      <PageHeader title="Settings" description="Your profile, email address and password." />
      <Card>
        <CardHeader title="Profile Information" description="These details come from the election register." />
        <dl className="grid gap-4 px-5 py-4 sm:grid-cols-3">
          {rows.map(([label, value]) => (
            <div key={label} className="rounded-xl bg-slate-50 px-4 py-3">
              <dt className="text-xs font-semibold uppercase tracking-wide text-slate-600">{label}</dt>
              <dd className="mt-1 break-words font-medium text-slate-900" data-testid={`profile-${label}`}>
                {value}
              </dd>
            </div>
          ))}
        </dl>
      </Card>
      <div className="grid gap-6 lg:grid-cols-2">
        <EmailForm currentEmail={user.email} />
        <PasswordForm hasPassword={user.hasPassword} />
      </div>
    </div>
  );
}
