/**
 * Test harness: a fresh migrated libSQL database per app (a temp file by default, so the
 * real file path, WAL and the writer are exercised), a fake clock, an in-memory key, and
 * helpers that go through HTTP: by default the production listener (http/pipeline.ts `listen`)
 * on a free port, so the API suite runs against what serves in production; `listen: false`
 * answers in process with `app.request()` (a test of in-process stream backpressure, say).
 */
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { randomBytes } from "node:crypto";
import { afterEach, inject } from "vitest";
import { createApp } from "../app.ts";
import { ensureAdmin } from "../bootstrap.ts";
import { FakeClock } from "../clock.ts";
import { buildDeps, closeDeps } from "../context.ts";
import { openDatabase } from "../db/client.ts";
import type { Config } from "../deps.ts";
import { keysFromMaster } from "../security/keys.ts";
import { listen } from "../http/pipeline.ts";
import { createLogger } from "../log.ts";
import type { LevelWithSilent } from "pino";

/**
 * Silent unless TEST_LOG_LEVEL names a level (`TEST_LOG_LEVEL=error npx vitest run ...`): then
 * every app logs to stderr, so a 500 in a flaky run shows its cause.
 */
const TEST_LOG_LEVEL = process.env.TEST_LOG_LEVEL as LevelWithSilent | undefined;

export const ADMIN = { matricNumber: "0000/5570000", password: "admin-secret-1", name: "Returning Officer" };

export interface TestAppOptions {
  config?: Partial<Config>;
  memory?: boolean;
  now?: string;
  /**
   * Serve through the production listener on 127.0.0.1 and a free port, so `request` goes over
   * it (the default: what is tested is what serves); `false` answers in process with
   * `app.request()`.
   */
  listen?: boolean;
  /**
   * The election's `ballotBatch`; left out, the installation's default (10). A test that reads
   * one vote in the tallies right after its 201 asks for 1.
   */
  ballotBatch?: number;
}

export async function createTestApp(options: TestAppOptions = {}) {
  const dir = mkdtempSync(join(tmpdir(), "evoting-test-"));
  const url = options.memory ? ":memory:" : `file:${join(dir, "test.db")}`;
  // Migrated once per run (test/migrated-database.ts): a copy is the same fresh database.
  const migrated = inject("migratedDatabase");
  if (!options.memory && migrated) copyFileSync(migrated, join(dir, "test.db"));
  const database = await openDatabase({ url, synchronous: "NORMAL" });
  const clock = new FakeClock(Date.parse(options.now ?? "2026-03-02T09:00:00Z"));
  // Each ballot is applied before its vote is answered (services/votes/mixer.ts), so a test reads
  // counts and results right after a 201; the secrecy tests turn this off to mix in batches.
  const deps = buildDeps(database, clock, keysFromMaster(randomBytes(32)), {
    ...(TEST_LOG_LEVEL ? { log: createLogger(TEST_LOG_LEVEL, process.stderr) } : {}),
    ...options.config,
    mixer: { immediate: true, ...options.config?.mixer },
  });
  await ensureAdmin(database, ADMIN, clock.now(), () => {});
  if (options.ballotBatch !== undefined) {
    await database.client.execute({ sql: "UPDATE election_settings SET ballot_batch = ? WHERE id = 1", args: [options.ballotBatch] });
  }
  const app = createApp(deps);
  const server: Server | null = (options.listen ?? true) ? await listen(app, deps, { port: 0, hostname: "127.0.0.1" }) : null;
  const origin = server ? `http://127.0.0.1:${(server.address() as AddressInfo).port}` : "";

  const request = (path: string, init: RequestInit & { token?: string; json?: unknown } = {}) => {
    const headers = new Headers(init.headers);
    if (init.token) headers.set("authorization", `Bearer ${init.token}`);
    let body = init.body;
    if (init.json !== undefined) {
      headers.set("content-type", "application/json");
      body = JSON.stringify(init.json);
    }
    return server ? fetch(`${origin}/api${path}`, { ...init, headers, body }) : app.request(`/api${path}`, { ...init, headers, body });
  };

  async function login(matricNumber: string, secret: { password?: string; dateOfBirth?: number | string }) {
    const res = await request("/auth/login", { method: "POST", json: { matricNumber, ...secret } });
    if (res.status !== 200) throw new Error(`login ${matricNumber} failed: ${res.status} ${await res.text()}`);
    return (await res.json()) as { token: string; user: { _id: string } };
  }

  const adminToken = async () => (await login(ADMIN.matricNumber, { password: ADMIN.password })).token;

  let voterSeq = 0;
  async function createVoter(admin: string, dateOfBirth = "20020515") {
    const matricNumber = `2020/5570${String(++voterSeq).padStart(3, "0")}`;
    const res = await request("/admin/users", {
      method: "POST",
      token: admin,
      json: { name: `Voter ${voterSeq}`, matricNumber, dateOfBirth: Number(dateOfBirth) },
    });
    if (res.status !== 201) throw new Error(`create voter failed: ${res.status} ${await res.text()}`);
    const { token } = await login(matricNumber, { dateOfBirth: Number(dateOfBirth) });
    return { matricNumber, token, dateOfBirth };
  }

  /** An observer (read-only admin) signed in by password; answers its token. */
  async function createObserver(admin: string, matricNumber = "2020/5570900") {
    const res = await request("/admin/users", {
      method: "POST",
      token: admin,
      json: { name: "Olu Observer", matricNumber, role: "observer", password: "observer-pass-1" },
    });
    if (res.status !== 201) throw new Error(`create observer failed: ${res.status} ${await res.text()}`);
    return (await login(matricNumber, { password: "observer-pass-1" })).token;
  }

  async function createPosition(admin: string, title: string, startTime: string, endTime: string) {
    const res = await request("/admin/positions", { method: "POST", token: admin, json: { title, startTime, endTime } });
    if (res.status !== 201) throw new Error(`create position failed: ${res.status} ${await res.text()}`);
    return (await res.json()) as { _id: string; title: string };
  }

  async function createCandidate(admin: string, positionId: string, name: string, photo?: Blob) {
    const form = new FormData();
    form.set("name", name);
    form.set("positionId", positionId);
    if (photo) form.set("photo", photo, "photo.png");
    const res = await request("/admin/candidates", { method: "POST", token: admin, body: form });
    if (res.status !== 201) throw new Error(`create candidate failed: ${res.status} ${await res.text()}`);
    return (await res.json()) as { _id: string; name: string; photo: string | null };
  }

  /** An open position (window around the fake now) with the given candidates. */
  async function openElection(admin: string, candidateNames = ["Ada", "Grace"], title = "President") {
    const now = clock.now();
    const position = await createPosition(admin, title, new Date(now - 3_600_000).toISOString(), new Date(now + 3_600_000).toISOString());
    const candidates = [];
    for (const name of candidateNames) candidates.push(await createCandidate(admin, position._id, name));
    return { position, candidates };
  }

  async function close() {
    if (server) {
      server.closeAllConnections();
      await new Promise((ok) => server.close(ok));
    }
    await closeDeps(deps);
    rmSync(dir, { recursive: true, force: true });
  }

  return { app, deps, clock, database, request, login, adminToken, createVoter, createObserver, createPosition, createCandidate, openElection, close };
}

export type TestApp = Awaited<ReturnType<typeof createTestApp>>;

/**
 * For a file whose tests each need their own app: returns `fresh(options)`, and closes every
 * app it made after each test.
 */
export function freshTestApps(): (options?: TestAppOptions) => Promise<TestApp> {
  const apps: TestApp[] = [];
  afterEach(async () => {
    for (const app of apps.splice(0)) await app.close();
  });
  return async (options = {}) => {
    const app = await createTestApp(options);
    apps.push(app);
    return app;
  };
}

/** The smallest valid PNG (1x1, transparent). */
export const TINY_PNG = Buffer.from(
  "89504e470d0a1a0a0000000d4948445200000001000000010806000000" +
    "1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082",
  "hex",
);
