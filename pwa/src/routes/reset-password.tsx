import { createFileRoute } from "@tanstack/react-router";
import { ResetPasswordPage } from "../screens/ResetPasswordPage";

interface ResetSearch {
  token?: string;
  matric?: string;
}

export const Route = createFileRoute("/reset-password")({
  validateSearch: (search: Record<string, unknown>): ResetSearch => ({
    token: typeof search.token === "string" && search.token ? search.token : undefined,
    matric: typeof search.matric === "string" && search.matric ? search.matric : undefined,
  }),
  component: function ResetPasswordRoute() {
    const { token, matric } = Route.useSearch();
    return <ResetPasswordPage token={token} matric={matric} />;
  },
});
