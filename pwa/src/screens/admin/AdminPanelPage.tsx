import { lazy, Suspense } from "react";
import { Link } from "@tanstack/react-router";
import { canWriteAdmin } from "@evoting/shared";
import { observerMayOpen } from "../../auth/guards";
import { useSession } from "../../auth/use-session";
import { useLogout } from "../../data/use-logout";
import { Button } from "../../components/ui/Button";
import { Icon } from "../../components/ui/Icon";
import { ElectionWindowNotice } from "../../components/admin/ElectionWindowNotice";
import { IntegrityCard } from "../../components/admin/IntegrityCard";
import { ElectionLifecycleCard } from "../../components/admin/ElectionLifecycleCard";
import type { IconName } from "../../components/layout/nav";

type CardIcon = IconName | "list" | "chart" | "upload";

/** The turnout chart is its own chunk: the panel's cards do not wait for it. */
const TurnoutPanel = lazy(() => import("../../components/results/TurnoutPanel"));

const actions: { to: string; label: string; description: string; icon: CardIcon; tone: string }[] = [
  { to: "/admin/users", label: "Create Users", description: "Register voters by matric number and date of birth.", icon: "user-plus", tone: "bg-indigo-50 text-indigo-700" },
  { to: "/admin/positions", label: "Create Positions", description: "Open a position with its voting window.", icon: "list-plus", tone: "bg-violet-50 text-violet-700" },
  { to: "/admin/candidates", label: "Create Candidates", description: "Add candidates with a photo to a position.", icon: "id-card", tone: "bg-sky-50 text-sky-700" },
  { to: "/admin/manage-positions", label: "Manage Positions", description: "Review windows and delete positions.", icon: "list", tone: "bg-amber-50 text-amber-800" },
  { to: "/admin/manage-candidates", label: "Manage Candidates", description: "Review and remove candidates.", icon: "users", tone: "bg-rose-50 text-rose-700" },
  { to: "/admin/election", label: "Election Settings", description: "Title, voting window, when results show and the ballot order.", icon: "settings", tone: "bg-violet-50 text-violet-700" },
  { to: "/admin/nominations", label: "Nominations", description: "Screen applications to stand: approve or reject each one.", icon: "id-card", tone: "bg-amber-50 text-amber-800" },
  { to: "/admin/voters/import", label: "Import Voters", description: "Load the whole roll from a CSV file, checked before anything is saved.", icon: "upload", tone: "bg-indigo-50 text-indigo-700" },
  { to: "/admin/voters", label: "Manage Voters", description: "Find any voter, fix their record, reset a password, export the roll.", icon: "users", tone: "bg-sky-50 text-sky-700" },
  { to: "/admin/stations", label: "Polling Stations", description: "Staffed devices where any voter can vote, even offline.", icon: "ballot", tone: "bg-emerald-50 text-emerald-800" },
  { to: "/admin/notifications", label: "Notify Voters", description: "Email voters an invitation, a reminder or the results, and follow delivery.", icon: "mail", tone: "bg-sky-50 text-sky-700" },
  { to: "/admin/trustees", label: "Trustees", description: "Who holds the verifiable positions' decryption key: generate your key, and lock each position.", icon: "shield", tone: "bg-indigo-50 text-indigo-700" },
  { to: "/admin/credentials", label: "Credential Authority", description: "Make each voter's credential in this browser and print their slips.", icon: "id-card", tone: "bg-violet-50 text-violet-700" },
  { to: "/admin/decrypt", label: "Decrypt", description: "After the close, each trustee decrypts the verifiable tallies with their key file.", icon: "receipt", tone: "bg-emerald-50 text-emerald-800" },
  { to: "/admin/who-voted", label: "Who Voted", description: "After the close, who cast a ballot for each verifiable position, never how: publish it for voters to check.", icon: "users", tone: "bg-sky-50 text-sky-700" },
  { to: "/admin/audit", label: "Audit Log", description: "Every admin action, tamper-evident: filter it and export it.", icon: "log", tone: "bg-slate-100 text-slate-800" },
  { to: "/admin/results/print", label: "Results Sheet", description: "A printable copy of the results with digests to check it by.", icon: "receipt", tone: "bg-lime-50 text-lime-800" },
  { to: "/elections", label: "Past Elections", description: "Every declared election's results, sheet and counted ballots, as published.", icon: "receipt", tone: "bg-amber-50 text-amber-800" },
  { to: "/results", label: "Live Results", description: "Follow the count as votes arrive.", icon: "chart", tone: "bg-green-50 text-green-700" },
  { to: "/candidates", label: "All Candidates", description: "See every candidate by position.", icon: "trophy", tone: "bg-teal-50 text-teal-700" },
  { to: "/settings", label: "Settings", description: "Your profile, email and password.", icon: "settings", tone: "bg-slate-100 text-slate-700" },
];

export function AdminPanelPage() {
  const current = useSession();
  const logout = useLogout();
  // Observers get the read-only pages only; every write stays hidden from them.
  const canWrite = canWriteAdmin(current?.user.role);
  const visible = actions.filter((a) => canWrite || !a.to.startsWith("/admin") || observerMayOpen(a.to));
  return (
    <div className="space-y-8">
      <section className="flex flex-wrap items-center justify-between gap-4 rounded-3xl bg-gradient-to-br from-slate-900 to-indigo-900 px-6 py-8 text-white shadow-lg sm:px-10">
        <div>
          <h1 className="text-3xl font-extrabold tracking-tight">Admin Panel</h1>
          <p className="mt-2 text-indigo-100">
            Welcome back, {current?.user.name}. {canWrite ? "Manage the election from here." : "You are observing: everything here is read-only."}
          </p>
        </div>
        <Button variant="secondary" onClick={logout}>
          <Icon name="logout" className="size-4" />
          Logout
        </Button>
      </section>

      <ElectionWindowNotice canWrite={canWrite} />

      <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        {visible.map((action) => (
          <li key={action.to}>
            <Link
              to={action.to}
              className="focus-ring group flex h-full flex-col rounded-2xl border border-slate-200 bg-white p-5 shadow-sm transition hover:-translate-y-0.5 hover:border-indigo-300 hover:shadow-md"
            >
              <span className={`flex size-11 items-center justify-center rounded-xl ${action.tone}`}>
                <Icon name={action.icon} />
              </span>
              <span className="mt-4 font-semibold text-slate-900 group-hover:text-indigo-800">{action.label}</span>
              <span className="mt-1 text-sm text-slate-600">{action.description}</span>
            </Link>
          </li>
        ))}
      </ul>

      <ElectionLifecycleCard canWrite={canWrite} />

      <IntegrityCard canRun={canWrite} />

      <Suspense fallback={null}>
        <TurnoutPanel />
      </Suspense>
    </div>
  );
}
