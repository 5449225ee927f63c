/**
 * Sign-in limits under attack, against the real server on a temp database:
 *   node --import tsx bench/signin.ts
 *
 * 1. 365 parallel date-of-birth guesses for one voter (the right one sent last): how many were
 *    checked, how many refused, whether any got a token.
 * 2. 1,500 parallel password changes with the RIGHT current password, and an honest sign-in
 *    meanwhile: how many ran, and the honest sign-in's time.
 * 3. A campus NAT: 330 wrong answers from one address on 3 accounts, then a neighbour's sign-in.
 * 4. A restart: 5 failures, the server restarted, a 6th failure, the right answer.
 * 5. The per-address budget: failures on 301 distinct accounts from one address.
 * 6. The hash queue: one address sends 400 parallel password sign-ins (argon2 each) while
 *    another address signs in with a password: how many of the flood were hashed, and the
 *    other address's time.
 * Loopback only; prints figures, asserts nothing (README "Sign-in limits" quotes them). A
 * status 0 is a connection the server's listen backlog turned away under the flood.
 */
import { loadavg } from "node:os";
import { ADMIN_MATRIC, ADMIN_PASSWORD, startServer, type RunningServer } from "./lib/server.ts";
import { matricOf, seed, tempDir, VOTER_DOB } from "./lib/seed.ts";

const log = (line: string) => console.log(`signin   ${line}`);

function tally(statuses: number[]): string {
  const counts = new Map<number, number>();
  for (const s of statuses) counts.set(s, (counts.get(s) ?? 0) + 1);
  return [...counts.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([s, n]) => `${n} x ${s}`)
    .join(", ");
}

/** Calendar dates of one year as YYYYMMDD numbers. */
const daysOf = (year: number) =>
  Array.from({ length: 365 }, (_, i) => Number(new Date(Date.UTC(year, 0, 1 + i)).toISOString().slice(0, 10).replaceAll("-", "")));

async function main() {
  const scratch = tempDir("signin");
  await seed(scratch.dbPath, { voters: 10, positions: 1 });
  let server: RunningServer = await startServer({ dbPath: scratch.dbPath });
  const cleanups: (() => void)[] = [];
  const post = (path: string, body: unknown, token?: string, method = "POST") =>
    fetch(`${server.url}/api${path}`, {
      method,
      headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
  const login = (matricNumber: string, secret: Record<string, unknown>) => post("/auth/login", { matricNumber, ...secret });
  const timed = async (run: () => Promise<Response>) => {
    const start = performance.now();
    const res = await run();
    await res.arrayBuffer();
    return { status: res.status, ms: Math.round(performance.now() - start), retryAfter: res.headers.get("retry-after") };
  };

  try {
    // 1. The burst.
    const guesses = daysOf(2001);
    guesses[364] = Number(VOTER_DOB);
    let start = performance.now();
    const burst = await Promise.all(guesses.map((dateOfBirth) => login(matricOf(1), { dateOfBirth }).then((r) => r.status, () => 0)));
    log(`365 parallel guesses for one voter (right one last): ${tally(burst)} in ${Math.round(performance.now() - start)} ms`);

    // 2. Password changes with the right current password, and an honest sign-in meanwhile.
    const admin = (await (await login(ADMIN_MATRIC, { password: ADMIN_PASSWORD })).json()) as { token: string };
    start = performance.now();
    const changes = Array.from({ length: 1_500 }, (_, i) =>
      post("/auth/password", { currentPassword: ADMIN_PASSWORD, newPassword: `bench-new-secret-${i}` }, admin.token, "PUT").then((r) => r.status, () => 0),
    );
    const honest = await timed(() => login(matricOf(2), { dateOfBirth: VOTER_DOB }));
    const changed = await Promise.all(changes);
    log(`1,500 parallel password changes (right current password): ${tally(changed)} in ${Math.round(performance.now() - start)} ms`);
    log(`an honest sign-in meanwhile: ${honest.status} in ${honest.ms} ms`);
    // The same number of cheap authenticated reads, for comparison: what the machine costs.
    const reads = Array.from({ length: 1_500 }, () => fetch(`${server.url}/api/auth/profile`, { headers: { authorization: `Bearer ${admin.token}` } }).then((r) => r.arrayBuffer(), () => null));
    const honestAmidReads = await timed(() => login(matricOf(9), { dateOfBirth: VOTER_DOB }));
    await Promise.all(reads);
    log(`for comparison, an honest sign-in amid 1,500 parallel profile reads: ${honestAmidReads.status} in ${honestAmidReads.ms} ms (load average ${loadavg()[0].toFixed(1)})`);

    // 3. Campus NAT: one address failing 330 times on 3 accounts, then a neighbour.
    start = performance.now();
    const nat: number[] = [];
    for (const k of [3, 4, 5]) {
      nat.push(...(await Promise.all(daysOf(1990).slice(0, 110).map((dateOfBirth) => login(matricOf(k), { dateOfBirth }).then((r) => r.status, () => 0)))));
    }
    const neighbour = await timed(() => login(matricOf(6), { dateOfBirth: VOTER_DOB }));
    log(`one address, 330 wrong answers on 3 accounts: ${tally(nat)}; a neighbour's sign-in then: ${neighbour.status} in ${neighbour.ms} ms`);

    // 4. A restart keeps the count: after it, the next wrong answer is the 6th (a 2 s lock), not a free one.
    for (let i = 0; i < 5; i++) await (await login(matricOf(8), { dateOfBirth: guesses[i] })).arrayBuffer();
    await server.stop();
    server = await startServer({ dbPath: scratch.dbPath });
    await new Promise((r) => setTimeout(r, 1_100));
    await (await login(matricOf(8), { dateOfBirth: guesses[5] })).arrayBuffer();
    const restarted = await timed(() => login(matricOf(8), { dateOfBirth: VOTER_DOB }));
    log(`5 wrong answers, server restarted, a 6th wrong one, then the right one: ${restarted.status} (Retry-After ${restarted.retryAfter ?? "-"} s)`);

    // 5. Many distinct accounts from one address.
    const distinct: number[] = [];
    for (let from = 0; from < 301; from += 25) {
      const batch = Array.from({ length: Math.min(25, 301 - from) }, (_, j) => `2025/5570${String(from + j).padStart(6, "0")}`);
      distinct.push(...(await Promise.all(batch.map((m) => login(m, { dateOfBirth: 20000101 }).then((r) => r.status, () => 0)))));
    }
    const after = await timed(() => login(matricOf(7), { dateOfBirth: VOTER_DOB }));
    log(`wrong answers on 301 distinct accounts from one address: ${tally(distinct)}; then a right one: ${after.status}, Retry-After ${after.retryAfter ?? "-"} s`);

    // 6. The hash queue, behind a trusted proxy so the two addresses differ; a fresh database
    // (2. changed the admin's password).
    await server.stop();
    const fresh = tempDir("signin-hash");
    await seed(fresh.dbPath, { voters: 1, positions: 1 });
    server = await startServer({ dbPath: fresh.dbPath, env: { TRUST_PROXY: "1" } });
    cleanups.push(() => fresh.cleanup());
    const from = (address: string, body: unknown) =>
      fetch(`${server.url}/api/auth/login`, { method: "POST", headers: { "content-type": "application/json", "x-forwarded-for": address }, body: JSON.stringify(body) });
    const flood = Array.from({ length: 400 }, (_, i) =>
      from("203.0.113.9", { matricNumber: `2023/5570${String(i).padStart(6, "0")}`, password: "guess-a-password" }).then((r) => r.status, () => 0),
    );
    const other = await timed(() => from("198.51.100.7", { matricNumber: ADMIN_MATRIC, password: ADMIN_PASSWORD }));
    log(`400 parallel password sign-ins from one address: ${tally(await Promise.all(flood))}; another address's password sign-in meanwhile: ${other.status} in ${other.ms} ms`);
  } finally {
    await server.stop();
    scratch.cleanup();
    for (const cleanup of cleanups) cleanup();
  }
}

await main();
