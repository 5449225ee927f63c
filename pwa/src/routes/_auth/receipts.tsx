import { createFileRoute } from "@tanstack/react-router";
import { ballotPositionsQuery } from "../../data/queries";
import { ReceiptsPage } from "../../screens/ReceiptsPage";

export const Route = createFileRoute("/_auth/receipts")({
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(ballotPositionsQuery());
  },
  component: ReceiptsPage,
});
