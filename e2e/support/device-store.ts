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

export interface DeviceStore {
  /** Every row of the app's stores, by store. */
  rows: Record<string, DeviceRow[]>;
  /** The session's keys left in localStorage and sessionStorage. */
  session: string[];
}

/**
 * Reads the device store in the page: every row by store, and the session's storage keys; null
 * when the store has not answered within `timeoutMs` (a transaction holding it never ended).
 * Self-contained, so either browser driver can send its source to the page.
 */
export async function readDeviceStore(timeoutMs?: number): Promise<DeviceStore | null> {
  const read = async (): Promise<DeviceStore> => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const open = indexedDB.open("evoting");
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
      open.onblocked = () => reject(new Error("the device store is blocked by another connection"));
    });
    const rows: Record<string, DeviceRow[]> = {};
    for (const name of ["cache", "marks", "outbox", "outcomes"]) {
      rows[name] = !db.objectStoreNames.contains(name)
        ? []
        : await new Promise((resolve) => {
            const request = db.transaction(name).objectStore(name).getAll();
            request.onsuccess = () => resolve(request.result);
          });
    }
    db.close();
    const keys = Object.keys(localStorage).concat(Object.keys(sessionStorage));
    return { rows, session: keys.filter((k) => /token|user/i.test(k)) };
  };
  if (timeoutMs === undefined) return read();
  return Promise.race([read(), new Promise<null>((resolve) => setTimeout(() => resolve(null), timeoutMs))]);
}

/** Every row of the app's stores, by store. */
export async function deviceRows(page: Page): Promise<Record<string, DeviceRow[]>> {
  return (await page.evaluate(readDeviceStore, undefined))!.rows;
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
