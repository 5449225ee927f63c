import { Link } from "@tanstack/react-router";
import { buttonClass } from "./ui/Button";

export function NotFound() {
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center gap-4 px-6 text-center">
      <p className="text-sm font-semibold text-indigo-700">404</p>
      <h1 className="text-2xl font-bold text-slate-900">Page not found</h1>
      <p className="text-slate-600">The page you are looking for does not exist.</p>
      <Link to="/" className={buttonClass("primary")}>
        Go to the home page
      </Link>
    </main>
  );
}
