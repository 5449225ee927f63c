import { createFileRoute } from "@tanstack/react-router";
import { CreateUserPage } from "../../../screens/admin/CreateUserPage";

export const Route = createFileRoute("/_auth/admin/users")({
  component: CreateUserPage,
});
