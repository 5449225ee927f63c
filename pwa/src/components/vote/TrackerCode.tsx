import { Link } from "@tanstack/react-router";
import { verifiableText } from "../../verifiable/messages";

/** A verifiable ballot's tracker: what the voter looks for on the public Ballot Box page. */
export function TrackerCode({ tracker }: { tracker: string }) {
  return (
    <p className="mt-2 rounded-lg bg-slate-50 px-3 py-2.5 text-sm text-slate-800" data-testid="tracker">
      {verifiableText.trackerLabel}: <code className="break-all font-mono text-sm font-semibold text-slate-900">{tracker}</code>
      <span className="block text-xs text-slate-600">
        {verifiableText.trackerHelp}{" "}
        <Link to="/ballot-box" search={{ tracker }} className="font-medium text-indigo-700 underline">
          Open the Ballot Box
        </Link>
      </span>
    </p>
  );
}
