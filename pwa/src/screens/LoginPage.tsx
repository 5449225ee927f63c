import { useState, type FormEvent } from "react";
import { useMutation } from "@tanstack/react-query";
import { Link, useNavigate } from "@tanstack/react-router";
import { APP_TITLE, messages } from "@evoting/shared";
import { api } from "../api/client";
import { session } from "../auth/session";
import { homeFor } from "../auth/guards";
import { notifyError, notifySuccess } from "../lib/notify";
import { fieldErrors, type FieldErrors } from "../lib/form-errors";
import { Button } from "../components/ui/Button";
import { TextField } from "../components/ui/Field";
import { Spinner } from "../components/ui/Spinner";
import { useAuthMethod } from "./login/use-auth-method";
import { usePublicElection } from "./login/use-public-election";
import { LogoMark } from "../components/layout/LogoMark";
import { InstallHint } from "../components/install/InstallHint";

type LoginField = "matricNumber" | "password" | "dateOfBirth";

// The checks (and zod) load when the form is first used, not with the page (login-schemas.ts).
const loadSchemas = () => import("./login/login-schemas");

export function LoginPage() {
  const navigate = useNavigate();
  const [matricNumber, setMatricNumber] = useState("");
  const [password, setPassword] = useState("");
  const [dateOfBirth, setDateOfBirth] = useState("");
  const [errors, setErrors] = useState<FieldErrors<LoginField>>({});
  const { method, checking, notFound } = useAuthMethod(matricNumber);
  // The election's own title; the baseline's (docs/product.md) until it has loaded, or if it cannot.
  const election = usePublicElection();

  const login = useMutation({
    mutationFn: api.login,
    onSuccess: (answer) => {
      session.signIn(answer.token, { ...answer.user, role: answer.role ?? answer.user.role });
      notifySuccess(messages.loginSuccess);
      void navigate({ to: homeFor(answer.role ?? answer.user.role), replace: true });
    },
    onError: (error) => notifyError(error, messages.loginFailed),
  });

  const validateMatric = () => {
    void loadSchemas().then(({ checkUserSchema }) => {
      const parsed = checkUserSchema.safeParse({ matricNumber });
      setErrors((e) => ({ ...e, matricNumber: parsed.success ? undefined : fieldErrors<LoginField>(parsed.error).matricNumber }));
    });
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (method === "unknown" || checking || login.isPending) return;
    const candidate =
      method === "password" ? { matricNumber, password } : { matricNumber, dateOfBirth: dateOfBirth.trim() };
    void loadSchemas().then(({ loginSchema }) => {
      const parsed = loginSchema.safeParse(candidate);
      if (!parsed.success) {
        setErrors(fieldErrors<LoginField>(parsed.error));
        return;
      }
      setErrors({});
      const matric = parsed.data.matricNumber;
      login.mutate(
        method === "password"
          ? { matricNumber: matric, password }
          : { matricNumber: matric, dateOfBirth: Number(parsed.data.dateOfBirth) },
      );
    });
  };

  const headerSuffix = method === "password" ? " and password" : method === "dob" ? " and date of birth" : "";
  const disabled = checking || login.isPending || method === "unknown";

  return (
    <div className="grid min-h-dvh lg:grid-cols-2">
      <section
        aria-label="About the election"
        className="relative hidden overflow-hidden bg-gradient-to-br from-indigo-700 via-indigo-600 to-violet-700 p-12 text-white lg:flex lg:flex-col lg:justify-between"
      >
        <div className="flex items-center gap-3">
          <LogoMark size={44} className="size-11 rounded-xl ring-2 ring-white/30" />
          <span className="text-xl font-bold">{APP_TITLE}</span>
        </div>
        <div>
          <p className="text-sm font-semibold uppercase tracking-widest text-indigo-100" data-testid="login-election-title">{election.title}</p>
          <p className="mt-3 text-4xl font-extrabold leading-tight">{election.subtitle}</p>
          <p className="mt-4 max-w-md text-indigo-50">
            One voter, one vote per position. Sign in to cast your ballot and follow the results live.
          </p>
        </div>
        <p className="text-sm text-indigo-100">Department of Computer Science Students&apos; Association</p>
        <div aria-hidden="true" className="absolute -right-24 -top-24 size-80 rounded-full bg-white/10" />
        <div aria-hidden="true" className="absolute -bottom-32 right-16 size-96 rounded-full bg-white/5" />
      </section>

      {/* Top-aligned, not centred: fields appearing under the matric number (the date of birth or
          password) then grow the form downwards instead of moving everything above them. */}
      <main className="flex justify-center px-4 pb-10 pt-12 sm:px-8 sm:pt-[12vh] lg:pt-[22vh]">
        <div className="w-full max-w-md">
          <div className="mb-8 flex items-center gap-3 lg:hidden">
            <LogoMark size={40} label="CSC E-Voting logo" className="size-10 shrink-0" />
            <p className="min-w-0">
              <span className="block whitespace-nowrap text-xl font-bold text-slate-900">{APP_TITLE}</span>
              <span className="block text-sm font-medium text-slate-600">{election.title}</span>
            </p>
          </div>
          <h1 className="text-3xl font-bold tracking-tight text-slate-900">Sign in</h1>
          <p className="mt-2 text-slate-600" data-testid="login-header-text">
            Enter your matriculation number{headerSuffix}
          </p>

          <form noValidate onSubmit={onSubmit} className="mt-8 space-y-5">
            <TextField
              label="Matriculation Number"
              name="matricNumber"
              autoComplete="username"
              placeholder="2020/5570123"
              value={matricNumber}
              onChange={(e) => {
                setMatricNumber(e.target.value);
                setErrors({});
                // The checks are fetched as soon as the form is used, so they are here by submit.
                void loadSchemas();
              }}
              onBlur={() => matricNumber && validateMatric()}
              error={errors.matricNumber ?? notFound ?? undefined}
            />

            {/* One status while the lookup runs, where the method's field will appear. */}
            {checking && (
              <p className="flex items-center gap-2 rounded-lg bg-slate-100 px-3 py-2.5 text-sm text-slate-700" role="status">
                <Spinner className="size-3.5" /> Checking user...
              </p>
            )}

            {method === "password" && (
              <div className="space-y-3">
                <TextField
                  label="Password"
                  name="password"
                  type="password"
                  autoComplete="current-password"
                  value={password}
                  onChange={(e) => setPassword(e.target.value)}
                  error={errors.password}
                />
                <p className="rounded-lg bg-indigo-50 px-3 py-2 text-sm text-indigo-900">This account requires password authentication</p>
                <p className="text-sm">
                  <Link to="/reset-password" search={{ matric: matricNumber.trim() }} className="focus-ring font-medium text-indigo-700 underline-offset-2 hover:underline">
                    Forgot password?
                  </Link>
                </p>
              </div>
            )}

            {method === "dob" && (
              <div className="space-y-3">
                <TextField
                  label="Date of Birth"
                  name="dateOfBirth"
                  inputMode="numeric"
                  autoComplete="bday"
                  maxLength={8}
                  placeholder="YYYYMMDD"
                  value={dateOfBirth}
                  onChange={(e) => setDateOfBirth(e.target.value)}
                  error={errors.dateOfBirth}
                />
                <p className="rounded-lg bg-indigo-50 px-3 py-2 text-sm text-indigo-900">This account uses date of birth authentication</p>
              </div>
            )}

            <Button type="submit" size="lg" className="w-full" disabled={disabled}>
              {login.isPending ? "Logging in..." : "Login"}
            </Button>
          </form>
          <div className="mt-8 empty:hidden">
            <InstallHint />
          </div>
        </div>
      </main>
    </div>
  );
}
