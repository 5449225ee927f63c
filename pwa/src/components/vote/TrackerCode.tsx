import { verifiableText } from "../../verifiable/messages";

/** A verifiable ballot's tracker: what the voter looks for on the public Ballot Box page. */
export function TrackerCode({ tracker }: { tracker: string }) {
  return (
    <p className="mt-2 rounded-lg bg-slate-50 px-3 py-2.5 text-sm text-slate-800" data-testid="tracker">
      {verifiableText.trackerLabel}: <code className="break-all font-mono text-sm font-semibold text-slate-900">{tracker}</code>
      <span className="block text-xs text-slate-600">
        {verifiableText.trackerHelp}{" "}
        {/* A plain link: the Ballot Box is a public page outside the signed-in shell. */}
        <a href={`/ballot-box?${new URLSearchParams({ tracker }).toString()}`} className="font-medium text-indigo-700 underline">
          Open the Ballot Box
        </a>
      </span>
    </p>
  );
}
