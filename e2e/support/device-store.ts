/**
 * The app's device store (IndexedDB `evoting`), read from a page the way any later user of the
 * computer, or the app itself offline, would find it.
 */
import type { Page } from "playwright-core";
import { expect } from "vitest";

export interface DeviceRow {
  userId: string;
  key?: string;
  state?: string;
  candidateName?: string;
  ballotTicket?: string;
}

/** Every row of the app's stores, by store. */
export function deviceRows(page: Page): Promise<Record<string, DeviceRow[]>> {
  return page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const open = indexedDB.open("evoting");
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    const rows: Record<string, { userId: string }[]> = {};
    for (const name of ["cache", "marks", "outbox", "outcomes"]) {
      if (!db.objectStoreNames.contains(name)) {
        rows[name] = [];
        continue;
      }
      rows[name] = await new Promise((resolve) => {
        const request = db.transaction(name).objectStore(name).getAll();
        request.onsuccess = () => resolve(request.result);
      });
    }
    db.close();
    return rows;
  });
}

/**
 * Waits until the device holds its own copy of each read in `keys`. The app keeps a copy when
 * the page is idle after the read, so a test that cuts the network must wait for it, as a
 * loaded machine may take seconds to reach that idle moment.
 */
export async function waitForDeviceCopy(page: Page, keys: readonly string[], timeout = 20_000): Promise<void> {
  const missing = async () => {
    const kept = new Set((await deviceRows(page)).cache!.map((row) => row.key));
    return keys.filter((key) => !kept.has(key));
  };
  await expect.poll(missing, { timeout }).toEqual([]);
}
