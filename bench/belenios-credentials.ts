/**
 * The event loop while a roll of public credentials is uploaded, then while a polling station
 * takes its package with the locked position's list of them (part of `npm run bench:belenios`;
 * alone: `node --import tsx bench/belenios-credentials.ts [--count=10000]`).
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import { bigintModPow, G, isPublicCredential, powm, precomputeBase, randomZq, setModPow } from "@evoting/shared/belenios";
import { createApp } from "../api/src/app.ts";
import { ensureAdmin } from "../api/src/bootstrap.ts";
import { systemClock } from "../api/src/clock.ts";
import { buildDeps, closeDeps } from "../api/src/context.ts";
import { openDatabase } from "../api/src/db/client.ts";
import { keysFromMaster } from "../api/src/security/keys.ts";
import { intArg, parseArgs } from "./lib/args.ts";

/**
 * `PUT /admin/positions/:id/credentials` with a roll of 10,000 public credentials, through the
 * real app in this process: the event loop's longest block meanwhile (its delay histogram's
 * maximum, and a 10 ms timer's worst lateness), against what checking them on the loop costs
 * (a sample of 200 with BigInt, as the event loop would do them). Then the position is locked and
 * a station's device takes its package (`GET /api/station/package`), which carries the list of
 * those credentials (shared belenios/credential.ts): the loop's longest block (the histogram's
 * maximum or the timer's lateness, whichever is more) the first time, when the list is made, and
 * the next, and the list's size.
 */
export async function credentialUpload(count: number): Promise<void> {
  // The event loop's own exponentiation, as the server's main thread has it.
  setModPow(bigintModPow);
  precomputeBase(G);
  const roll = Array.from({ length: count }, () => powm(G, randomZq()).toString());
  const sample = roll.slice(0, 200);
  const t = performance.now();
  if (!sample.every(isPublicCredential)) throw new Error("a credential is not a member");
  const onLoopMs = (performance.now() - t) / sample.length;

  const dir = mkdtempSync(join(tmpdir(), "evoting-bench-credentials-"));
  const database = await openDatabase({ url: `file:${join(dir, "bench.db")}`, synchronous: "NORMAL" });
  const deps = buildDeps(database, systemClock, keysFromMaster(randomBytes(32)));
  try {
    const admin = { matricNumber: "0000/5570000", name: "Returning Officer", password: "bench-admin-secret" };
    await ensureAdmin(database, admin, Date.now(), () => {});
    const app = createApp(deps);
    const call = async (path: string, init: { method?: string; token?: string; json?: unknown }) => {
      const headers: Record<string, string> = { "content-type": "application/json" };
      if (init.token) headers.authorization = `Bearer ${init.token}`;
      const res = await app.request(`/api${path}`, { method: init.method ?? "GET", headers, body: init.json === undefined ? undefined : JSON.stringify(init.json) });
      if (res.status >= 300) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      return res.json() as Promise<Record<string, unknown>>;
    };
    const token = String((await call("/auth/login", { method: "POST", json: { matricNumber: admin.matricNumber, password: admin.password } })).token);
    const soon = Date.now() + 3_600_000;
    const position = await call("/admin/positions", {
      method: "POST",
      token,
      json: { title: "Treasurer", verifiable: true, startTime: new Date(soon).toISOString(), endTime: new Date(soon + 3_600_000).toISOString() },
    });
    const upload = () => call(`/admin/positions/${String(position._id)}/credentials`, { method: "PUT", token, json: { publicCredentials: roll } });
    await upload(); // the verifier thread started, the code warm

    const watched = async <T>(work: () => Promise<T>) => {
      const delay = monitorEventLoopDelay({ resolution: 5 });
      let lateness = 0;
      let expected = performance.now() + 10;
      const timer = setInterval(() => {
        const now = performance.now();
        lateness = Math.max(lateness, now - expected);
        expected = now + 10;
      }, 10);
      delay.enable();
      const start = performance.now();
      const value = await work();
      const wallMs = performance.now() - start;
      // A block with no turn of the loop inside it shows only when the timers next run.
      await new Promise((resolve) => setTimeout(resolve, 30));
      delay.disable();
      clearInterval(timer);
      return { value, wallMs, blockMs: delay.max / 1e6, lateness };
    };
    const put = await watched(upload);
    if (put.value.count !== count) throw new Error(`stored ${String(put.value.count)} credentials`);
    console.log(
      `public credentials: PUT of ${count.toLocaleString("en")} checked in the verifier thread  ${(put.wallMs / 1000).toFixed(1)} s; event loop's longest block ${put.blockMs.toFixed(0)} ms (a 10 ms timer at most ${put.lateness.toFixed(0)} ms late); on the loop they would hold it ${((onLoopMs * count) / 1000).toFixed(1)} s (${onLoopMs.toFixed(2)} ms each)`,
    );

    // Locked, then a station's device takes its package with the list.
    const positionId = String(position._id);
    for (const name of ["Ngozi", "Bola"]) {
      const form = new FormData();
      form.set("name", name);
      form.set("positionId", positionId);
      const res = await app.request("/api/admin/candidates", { method: "POST", headers: { authorization: `Bearer ${token}` }, body: form });
      if (res.status !== 201) throw new Error(`candidate: ${res.status} ${await res.text()}`);
    }
    await call("/admin/trustees", { method: "POST", token, json: { name: "Server", server: true } });
    await call(`/admin/positions/${positionId}/lock`, { method: "POST", token });
    const station = await call("/admin/stations", { method: "POST", token, json: { name: "Library Hall 1" } });
    await call(`/admin/stations/${String(station._id)}/officers`, { method: "POST", token, json: { matricNumber: admin.matricNumber } });
    const session = await call("/station/sessions", { method: "POST", token, json: { stationId: station._id, password: admin.password } });
    const fetchPackage = async () => {
      const res = await app.request(`/api/station/package?session=${String(session.sessionId)}`, { headers: { authorization: `Bearer ${String(session.token)}` } });
      if (res.status !== 200) throw new Error(`package: ${res.status} ${await res.text()}`);
      return res.text();
    };
    // The first package makes the list (once per process: the credentials are frozen), the next reuse it.
    const first = await watched(fetchPackage);
    const next = await watched(fetchPackage);
    const list = (JSON.parse(next.value) as { credentialLists: Record<string, string> }).credentialLists[positionId];
    const seen = (w: typeof first) => `${w.wallMs.toFixed(0)} ms, the event loop held at most ${Math.max(w.blockMs, w.lateness).toFixed(0)} ms`;
    console.log(
      `station package with the list of ${count.toLocaleString("en")} (${list.length.toLocaleString("en")} characters, ${(gzipSync(list).length / 1024).toFixed(0)} KB gzip, of a ${(next.value.length / 1024).toFixed(0)} KB package): the first  ${seen(first)}; the next  ${seen(next)}`,
    );
  } finally {
    await closeDeps(deps);
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(`load average ${loadavg().map((n) => n.toFixed(1)).join(" ")}`);
  await credentialUpload(intArg(parseArgs(), "count", 10_000));
  console.log(`load average at the end ${loadavg().map((n) => n.toFixed(1)).join(" ")}`);
}
