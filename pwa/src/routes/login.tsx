import { createFileRoute, redirect } from "@tanstack/react-router";
import { session } from "../auth/session";
import { homeFor } from "../auth/guards";
import { LoginPage } from "../screens/LoginPage";

export const Route = createFileRoute("/login")({
  // Someone already signed in has nothing to do here.
  beforeLoad: () => {
    const user = session.user();
    if (session.isAuthenticated()) throw redirect({ to: homeFor(user?.role), replace: true });
  },
  component: LoginPage,
});
