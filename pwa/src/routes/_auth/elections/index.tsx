import { createFileRoute } from "@tanstack/react-router";
import { declaredElectionsQuery } from "../../../data/elections";
import { PastElectionsPage } from "../../../screens/elections/PastElectionsPage";

export const Route = createFileRoute("/_auth/elections/")({
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(declaredElectionsQuery());
  },
  component: PastElectionsPage,
});
