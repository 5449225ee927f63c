/**
 * The files a screen saves in a component test, by file name: jsdom has no object URLs and
 * follows no link, so each `<a download>` click is caught with the Blob it points to.
 * Call it in `beforeEach`; `vi.restoreAllMocks()` undoes the click spy.
 */
import { vi } from "vitest";

export function captureDownloads(): Map<string, Blob> {
  const saved = new Map<string, Blob>();
  const blobs = new Map<string, Blob>();
  let n = 0;
  URL.createObjectURL = (b: Blob | MediaSource) => {
    const url = `blob:test/${++n}`;
    blobs.set(url, b as Blob);
    return url;
  };
  URL.revokeObjectURL = () => {};
  vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (this: HTMLAnchorElement) {
    saved.set(this.download, blobs.get(this.getAttribute("href")!)!);
  });
  return saved;
}
