/**
 * The test's own calls to the server (straight to it, never through a device's relay): JSON
 * requests with a bearer token, sign-in, and the election set-up files repeat; plus waiting for
 * the service worker a device needs before its network is cut.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { expect } from "vitest";
import { builtPrecache } from "../../pwa/build/voter-precache";
import type { NetworkSwitch } from "./network-switch";
import { testPhoto } from "./png";

const HOUR = 3_600_000;

export function serverApi(base: string) {
  async function call<T>(path: string, init: RequestInit & { token?: string } = {}): Promise<{ status: number; body: T }> {
    const headers = new Headers(init.headers);
    if (init.token) headers.set("authorization", `Bearer ${init.token}`);
    if (typeof init.body === "string") headers.set("content-type", "application/json");
    const res = await fetch(`${base}/api${path}`, { ...init, headers });
    return { status: res.status, body: (await res.json().catch(() => null)) as T };
  }

  const post = <T>(path: string, json: unknown, token: string) => call<T>(path, { method: "POST", token, body: JSON.stringify(json) });

  async function login(matricNumber: string, secret: { password: string } | { dateOfBirth: number }): Promise<string> {
    const { status, body } = await post<{ token: string }>("/auth/login", { matricNumber, ...secret }, "");
    expect(status).toBe(200);
    return body.token;
  }

  /** A voter on the roll who signs in with a date of birth (`dob` as the sign-in form takes it, YYYYMMDD). */
  async function createVoter(token: string, voter: { name: string; matric: string; dob: string }): Promise<void> {
    const { status, body } = await post("/admin/users", { name: voter.name, matricNumber: voter.matric, dateOfBirth: Number(voter.dob) }, token);
    expect(status, JSON.stringify(body)).toBe(201);
  }

  /** A position open from an hour ago to three hours from now. */
  async function createPosition(token: string, title: string): Promise<string> {
    const window = { startTime: new Date(Date.now() - HOUR).toISOString(), endTime: new Date(Date.now() + 3 * HOUR).toISOString() };
    const { status, body } = await post<{ _id: string }>("/admin/positions", { title, ...window }, token);
    expect(status).toBe(201);
    return body._id;
  }

  async function createCandidate(token: string, name: string, positionId: string, hue: [number, number, number]): Promise<string> {
    const form = new FormData();
    form.append("name", name);
    form.append("positionId", positionId);
    form.append("photo", new Blob([new Uint8Array(testPhoto(hue))], { type: "image/png" }), "photo.png");
    const { status, body } = await call<{ _id: string }>("/admin/candidates", { method: "POST", token, body: form });
    expect(status).toBe(201);
    return body._id;
  }

  /**
   * The election's ballot batch. A flow that reads one vote in the tallies sets 1: with the
   * default (10) a lone vote waits for nine more or the close.
   */
  async function setBallotBatch(token: string, ballotBatch: number): Promise<void> {
    const { body: settings } = await call<Record<string, unknown>>("/election", { token });
    const { status } = await call("/admin/election", { method: "PUT", token, body: JSON.stringify({ ...settings, ballotBatch }) });
    expect(status).toBe(200);
  }

  return { call, post, login, createVoter, createPosition, createCandidate, setBallotBatch };
}

export async function waitForController(page: Page) {
  const controlled = () => page.waitForFunction(() => navigator.serviceWorker?.controller?.state === "activated", undefined, { timeout: 30_000 });
  try {
    await controlled();
  } catch {
    // Under heavy load a first visit has been seen to stay uncontrolled; the next one is not.
    await page.reload();
    await controlled();
  }
}

/** The built service worker's manifest: what every device precaches, and the staff screens' files. */
export const swManifest = () => builtPrecache(readFileSync(join(process.cwd(), "pwa/dist/sw.js"), "utf8"));

/** Waits until the worker has cached every staff screen's file (asked for when a staff screen opens). */
export async function waitForStaffScreens(page: Page) {
  const expected = swManifest().onDemand.map((url) => `/${url}`);
  expect(expected.length).toBeGreaterThan(0);
  await expect
    .poll(() => page.evaluate(async () => (await (await caches.open("staff-screens")).keys()).map((r) => new URL(r.url).pathname)), {
      timeout: 30_000,
      interval: 250,
    })
    .toEqual(expect.arrayContaining(expected));
}

/** Cuts (or restores) a device's network: Chromium's offline mode plus the relay it reaches the server through. */
export async function setDeviceOffline(context: BrowserContext, wifi: NetworkSwitch, offline: boolean) {
  if (offline) {
    await context.setOffline(true);
    wifi.cut();
  } else {
    wifi.restore();
    await context.setOffline(false);
  }
}
