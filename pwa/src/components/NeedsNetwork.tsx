import { offlineText } from "../offline/notices";

/**
 * Said on screens that only work with the server (admin changes, settings) while offline; their
 * submit buttons are disabled at the same time, instead of failing with a toast.
 */
export function NeedsNetwork({ online, className }: { online: boolean; className?: string }) {
  return (
    <div role="status" className={online ? undefined : className}>
      {!online && (
        <p className="rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm font-medium text-amber-900">
          {offlineText.needsNetwork}
        </p>
      )}
    </div>
  );
}
