/**
 * /reset-password: 'Forgot password?' from the sign-in screen. Without a token it asks for the
 * matriculation number and says the same thing whatever the account (the server mails a link
 * only to an account with a password and an email). With the link's token it sets a new
 * password, which signs the account out everywhere, and goes back to sign in.
 */
import { useState, type FormEvent } from "react";
import { useMutation } from "@tanstack/react-query";
import { Link, useNavigate } from "@tanstack/react-router";
import { APP_TITLE, mailText } from "@evoting/shared";
import { mailApi } from "../api/mail";
import { notifyError, notifySuccess } from "../lib/notify";
import { fieldErrors, type FieldErrors } from "../lib/form-errors";
import { Button } from "../components/ui/Button";
import { TextField } from "../components/ui/Field";
import { PageHeader } from "../components/ui/PageHeader";
import { LogoMark } from "../components/layout/LogoMark";

const loadSchemas = () => import("./reset-password/reset-schemas");
const REQUEST_FAILED = "Failed to send the reset link";
const RESET_FAILED = "Failed to reset the password";

export function ResetPasswordPage({ token, matric }: { token?: string; matric?: string }) {
  return (
    <main className="flex min-h-dvh items-center justify-center px-4 py-10 sm:px-8">
      <div className="w-full max-w-md">
        <div className="mb-8 flex items-center gap-3">
          <LogoMark size={40} label="CSC E-Voting logo" className="size-10" />
          <span className="text-xl font-bold text-slate-900">{APP_TITLE}</span>
        </div>
        {token ? <ChooseForm token={token} /> : <RequestForm initialMatric={matric ?? ""} />}
        <p className="mt-8 text-sm">
          <Link to="/login" className="focus-ring font-medium text-indigo-700 underline-offset-2 hover:underline">
            Back to sign in
          </Link>
        </p>
      </div>
    </main>
  );
}

function RequestForm({ initialMatric }: { initialMatric: string }) {
  const [matricNumber, setMatricNumber] = useState(initialMatric);
  const [error, setError] = useState<string>();
  const ask = useMutation({ mutationFn: mailApi.requestPasswordReset, onError: (e) => notifyError(e, REQUEST_FAILED) });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void loadSchemas().then(({ passwordResetRequestSchema }) => {
      const parsed = passwordResetRequestSchema.safeParse({ matricNumber });
      setError(parsed.success ? undefined : parsed.error.issues[0]?.message);
      if (parsed.success) ask.mutate(parsed.data.matricNumber);
    });
  };
  return (
    <>
      <PageHeader title="Reset password" description="Enter your matriculation number. We email a link to choose a new password to the address on your account." />
      {ask.isSuccess ? (
        <p role="status" className="rounded-lg bg-green-50 px-3 py-3 text-sm text-green-900">
          {ask.data.message}
        </p>
      ) : (
        <form noValidate onSubmit={submit} className="space-y-5">
          <TextField
            label="Matriculation Number"
            name="matricNumber"
            autoComplete="username"
            placeholder="2020/5570123"
            value={matricNumber}
            onChange={(e) => setMatricNumber(e.target.value)}
            error={error}
          />
          <Button type="submit" size="lg" className="w-full" disabled={ask.isPending}>
            {ask.isPending ? "Sending..." : "Send Link"}
          </Button>
        </form>
      )}
    </>
  );
}

type ChooseField = "newPassword" | "confirmPassword";

function ChooseForm({ token }: { token: string }) {
  const navigate = useNavigate();
  const [values, setValues] = useState({ newPassword: "", confirmPassword: "" });
  const [errors, setErrors] = useState<FieldErrors<ChooseField>>({});
  const reset = useMutation({
    mutationFn: (newPassword: string) => mailApi.confirmPasswordReset(token, newPassword),
    onSuccess: () => {
      notifySuccess(mailText.resetDone);
      void navigate({ to: "/login", replace: true });
    },
    onError: (e) => notifyError(e, RESET_FAILED),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void loadSchemas().then(({ passwordFormSchema }) => {
      const parsed = passwordFormSchema.safeParse(values);
      setErrors(parsed.success ? {} : fieldErrors<ChooseField>(parsed.error));
      if (parsed.success) reset.mutate(parsed.data.newPassword);
    });
  };
  const field = (name: ChooseField) => ({
    name,
    value: values[name],
    onChange: (e: { target: { value: string } }) => setValues((v) => ({ ...v, [name]: e.target.value })),
    error: errors[name],
  });
  return (
    <>
      <PageHeader title="Choose a new password" description="The new password signs you out on every device. This link works once." />
      <form noValidate onSubmit={submit} className="space-y-5">
        <TextField label="New Password" type="password" autoComplete="new-password" {...field("newPassword")} />
        <TextField label="Confirm Password" type="password" autoComplete="new-password" {...field("confirmPassword")} />
        <Button type="submit" size="lg" className="w-full" disabled={reset.isPending}>
          {reset.isPending ? "Resetting..." : "Reset Password"}
        </Button>
      </form>
    </>
  );
}
