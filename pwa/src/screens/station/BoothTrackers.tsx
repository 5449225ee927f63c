import type { BoothTracker } from "./StationBallot";
import { boothText } from "./booth-text";

/**
 * The trackers of the verifiable ballots this voter just cast at the booth, for them to note.
 * No link: the voter must not leave the station's screen; they look it up later on any device.
 */
export function BoothTrackers({ trackers }: { trackers: BoothTracker[] }) {
  return (
    <section aria-labelledby="booth-trackers" className="space-y-2 border-b border-slate-100 px-5 py-4 text-sm text-slate-800" data-testid="station-trackers">
      <h3 id="booth-trackers" className="text-base font-semibold text-slate-900">
        {boothText.trackersTitle}
      </h3>
      <p className="font-medium">{boothText.trackersIntro}</p>
      <ul className="space-y-1">
        {trackers.map((t) => (
          <li key={t.positionId} data-testid="station-tracker">
            <span className="font-medium">{t.title}:</span> <code className="break-all font-mono font-semibold text-slate-900">{t.tracker}</code>
          </li>
        ))}
      </ul>
      <p className="text-xs text-slate-600">{boothText.trackersHelp}</p>
    </section>
  );
}
