/**
 * `node --import tsx bench/mail.ts` (not part of `npm test`): 'Notify Voters' at roll size,
 * against the real server on a temp database and a local SMTP server in a third process.
 *   --voters=10000   roll size (every voter with an email)
 *   --probe=4        lanes of the latency probe, each a request every 50 ms while the queue sends
 *   --cpu-prof=DIR   profile the server; its longest synchronous spans, before and while sending:
 *                    node --import tsx bench/event-loop-blocks.ts DIR/CPU.*.0.001.cpuprofile
 * Targets: 10,000 invitations queued (POST /admin/notifications answered) in < 2 s, and every
 * request the probe makes meanwhile (check-user, a voter's positions, health) answered
 * within 50 ms, until the last message is accepted by the SMTP server.
 */
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { loadavg } from "node:os";
import { intArg, parseArgs } from "./lib/args.ts";
import { ADMIN_MATRIC, ADMIN_PASSWORD, ROOT, startServer } from "./lib/server.ts";
import { tempDir } from "./lib/seed.ts";
import { Latencies, fmt, ms, table } from "./lib/stats.ts";

const args = parseArgs();
const VOTERS = intArg(args, "voters", 10_000);
const PROBE = intArg(args, "probe", 4);
const PROF = args.get("cpu-prof");
/** When each phase began, on a V8 profile's clock (monotonic, µs), for bench/event-loop-blocks.ts. */
const phases: { phase: string; atUs: number }[] = [];
const enter = (phase: string) => phases.push({ phase, atUs: Number(process.hrtime.bigint() / 1000n) });
const matric = (i: number) => `2025/5570${String(i).padStart(6, "0")}`;

// The SMTP server first, in its own process.
const sink = spawn(process.execPath, ["--import", "tsx", "bench/lib/smtp-sink.ts"], { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] });
let received = 0;
const port = await new Promise<number>((ok, fail) => {
  const lines = createInterface({ input: sink.stdout! });
  lines.on("line", (line) => {
    const msg = JSON.parse(line) as { port?: number; received?: number };
    if (msg.port) ok(msg.port);
    if (msg.received !== undefined) received = msg.received;
  });
  sink.once("exit", (code) => fail(new Error(`SMTP sink exited (${code})`)));
});

const tmp = tempDir("mail");
const server = await startServer({ dbPath: tmp.dbPath, env: { SMTP_URL: `smtp://127.0.0.1:${port}` }, nodeArgs: PROF ? ["--cpu-prof", `--cpu-prof-dir=${PROF}`] : [] });
const verdicts: string[] = [];
const check = (ok: boolean, text: string) => verdicts.push(`${ok ? "MET   " : "MISSED"}  ${text}`);

async function call(path: string, init: { method?: string; body?: string | object; token?: string; type?: string } = {}) {
  const headers: Record<string, string> = {};
  if (init.body !== undefined) headers["content-type"] = init.type ?? "application/json";
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  const started = performance.now();
  const res = await fetch(`${server.url}/api${path}`, {
    method: init.method ?? "GET",
    headers,
    body: init.body === undefined ? undefined : typeof init.body === "string" ? init.body : JSON.stringify(init.body),
  });
  const json = (await res.json()) as Record<string, unknown>;
  return { status: res.status, json, ms: performance.now() - started };
}

try {
  console.log(`mail bench: ${fmt(VOTERS)} voters, probe ${PROBE} in flight, node ${process.version}, load average ${loadavg().map((n) => n.toFixed(2)).join(" ")}`);
  const admin = String((await call("/auth/login", { method: "POST", body: { matricNumber: ADMIN_MATRIC, password: ADMIN_PASSWORD } })).json.token);
  const lines = ["matricNumber,name,dateOfBirth,email,groups"];
  for (let i = 1; i <= VOTERS; i++) lines.push(`${matric(i)},Student ${i},20020515,student${i}@uniport.edu.ng,${["300L", "400L"][i % 2]}`);
  const imported = await call("/admin/voters/import?dryRun=0", { method: "POST", body: lines.join("\n"), token: admin, type: "text/csv" });
  if (imported.status !== 200) throw new Error(`import failed: ${imported.status} ${JSON.stringify(imported.json).slice(0, 300)}`);
  const voter = String((await call("/auth/login", { method: "POST", body: { matricNumber: matric(1), dateOfBirth: 20020515 } })).json.token);

  // The probe: a voter's calls, each lane one every 50 ms (80 a second with 4 lanes), until
  // stopped: the traffic of a polling day's quieter minutes, measured while the queue sends.
  // The same probe for 20 s before the send: on a shared machine the load alone makes waits,
  // and the difference is what the sender costs.
  const idle = new Latencies();
  const sending = new Latencies();
  let probe = idle;
  let probing = true;
  const probeCalls: [string, () => ReturnType<typeof call>][] = [
    ["check-user", () => call("/auth/check-user", { method: "POST", body: { matricNumber: matric(1 + Math.floor(Math.random() * VOTERS)) } })],
    ["positions", () => call("/vote/positions", { token: voter })],
    ["health", () => call("/health")],
  ];
  const lanes = Array.from({ length: PROBE }, async (_, lane) => {
    for (let n = lane; probing; n++) {
      const [kind, make] = probeCalls[n % probeCalls.length];
      const r = await make();
      if (r.status >= 400) throw new Error(`probe call failed: ${r.status} ${JSON.stringify(r.json)}`);
      probe.add(kind, r.ms);
      await new Promise((ok) => setTimeout(ok, Math.max(0, 50 - r.ms)));
    }
  });

  enter("before");
  await new Promise((r) => setTimeout(r, 20_000));
  enter("sending");
  probe = sending;
  const sent = await call("/admin/notifications", { method: "POST", body: { kind: "invitation" }, token: admin });
  if (sent.status !== 202) throw new Error(`send failed: ${sent.status} ${JSON.stringify(sent.json)}`);
  const started = performance.now();
  const deadline = Date.now() + 15 * 60_000;
  let progress = { queued: VOTERS, sent: 0, failed: 0 };
  while (Date.now() < deadline) {
    const list = await call("/admin/notifications", { token: admin });
    progress = (list.json.sends as (typeof progress)[])[0];
    if (progress.queued === 0) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  const sendingMs = performance.now() - started;
  enter("end");
  // The SMTP process reports its total every 200 ms: wait for the report that follows the last message.
  for (let waited = 0; received < progress.sent && waited < 2_000; waited += 100) await new Promise((r) => setTimeout(r, 100));
  probing = false;
  await Promise.all(lanes);

  console.log(
    table([
      { step: "queue (POST /admin/notifications)", messages: fmt(Number(sent.json.recipients)), time: ms(sent.ms) },
      { step: "send to the SMTP server", messages: `${fmt(progress.sent)} sent, ${fmt(progress.failed)} failed`, time: `${(sendingMs / 1000).toFixed(1)} s (${fmt(progress.sent / (sendingMs / 1000))}/s)` },
    ]),
  );
  const rows = (phase: string, l: Latencies) => l.summary().map((p) => ({ phase, probe: p.kind, requests: fmt(p.count), p50: ms(p.p50), p99: ms(p.p99), max: ms(p.max) }));
  console.log(table([...rows("before the send (20 s)", idle), ...rows("while sending", sending)]));
  const probed = sending.summary();
  const worst = Math.max(...probed.map((p) => p.max));
  const count = probed.reduce((n, p) => n + p.count, 0);
  check(Number(sent.json.recipients) === VOTERS && sent.ms < 2_000, `${fmt(VOTERS)} invitations queued in < 2 s: ${ms(sent.ms)}`);
  check(progress.sent === VOTERS && received >= VOTERS, `every message sent once: ${fmt(progress.sent)} sent, ${fmt(received)} received by the SMTP server`);
  check(worst <= 50, `no request waited > 50 ms while sending: max ${ms(worst)} over ${fmt(count)} requests`);
} finally {
  await server.stop();
  if (PROF) writeFileSync(join(PROF, `phases-${server.pid}.json`), JSON.stringify(phases));
  sink.kill("SIGTERM");
  tmp.cleanup();
}
console.log(verdicts.join("\n"));
