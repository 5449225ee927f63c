import { createFileRoute, redirect } from "@tanstack/react-router";
import { isStaff } from "@evoting/shared";
import { requireAuth } from "../auth/guards";
import { session } from "../auth/session";
import { StationPage } from "../screens/station/StationPage";

/** The polling-station device: staff only (officers see nothing else); voters go home. */
export const Route = createFileRoute("/station")({
  beforeLoad: () => {
    requireAuth();
    if (!isStaff(session.user()?.role)) throw redirect({ to: "/", replace: true });
  },
  component: StationPage,
});
