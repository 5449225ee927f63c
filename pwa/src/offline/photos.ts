/**
 * Candidate photos live in the service worker's runtime cache ('candidate-photos', cache
 * first), not in IndexedDB. A photo is only cached once it has been fetched, so after the
 * ballot loads online this asks for every candidate's photo in the background: the vote page
 * then shows faces offline even for cards the voter never scrolled to.
 */
import type { Position } from "@evoting/shared";
import { nextTask } from "../lib/page-idle";

export async function prefetchPhotos(
  positions: readonly Pick<Position, "candidates">[],
  fetchImpl: (url: string) => Promise<unknown> = (url) => fetch(url, { credentials: "same-origin" }),
  controlled: boolean = typeof navigator !== "undefined" && Boolean(navigator.serviceWorker?.controller),
): Promise<number> {
  // Without a controlling service worker nothing would keep the bytes: skip the traffic.
  if (!controlled) return 0;
  const urls = [...new Set(positions.flatMap((p) => p.candidates.map((c) => c.photo)).filter((u): u is string => Boolean(u)))];
  // One request starts per task: starting a fetch costs the page main-thread time (more under a
  // service worker), and a ballot's worth of them at once is one long task on a slow phone.
  const fetches: Promise<unknown>[] = [];
  for (const url of urls) {
    fetches.push(fetchImpl(url).catch(() => undefined));
    await nextTask(undefined);
  }
  await Promise.all(fetches);
  return urls.length;
}
