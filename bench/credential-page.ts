/**
 * The Credential Authority page with a large roll, in Debian's Chromium, on a fresh server with
 * the built PWA (`npm run build -w pwa` first): how long each phase takes and how much the page's
 * main thread is held meanwhile (long tasks, and the worst lateness of a 50 ms timer in the
 * page, which is what a click or a keystroke would wait). Not part of `npm run bench`: it takes
 * minutes. `node --import tsx bench/credential-page.ts [voters=2000] [positions=1]`.
 */
import { loadavg } from "node:os";
import { ADMIN } from "../e2e/support/accounts";
import { openBrowser, signIn } from "../e2e/support/browser";
import { startServer } from "../e2e/support/global-setup";
import { serverApi } from "../e2e/support/server-api";

const VOTERS = Number(process.argv[2] ?? 2000);
const POSITIONS = Number(process.argv[3] ?? 1);
const HOUR = 3_600_000;

interface Probe {
  longTasks: { start: number; duration: number }[];
  worstLateness: number;
}

const server = await startServer({});
const browser = await openBrowser(server.baseURL);
try {
  const api = serverApi(server.baseURL);
  const token = await api.login(ADMIN.matric, { password: ADMIN.password });
  const roll = ["matricNumber,name,dateOfBirth,email,groups", ...Array.from({ length: VOTERS }, (_, i) => `${2010 + Math.floor(i / 1000)}/5570${String(i % 1000).padStart(3, "0")},Voter ${i},20020101,,`)].join("\n");
  const imported = await fetch(`${server.baseURL}/api/admin/voters/import?dryRun=0`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "text/csv" },
    body: roll,
  });
  if (imported.status !== 200) throw new Error(`import: ${imported.status} ${await imported.text()}`);
  for (let i = 0; i < POSITIONS; i++) {
    const made = await api.post("/admin/positions", { title: `Position ${i + 1}`, startTime: new Date(Date.now() + HOUR).toISOString(), endTime: new Date(Date.now() + 3 * HOUR).toISOString(), verifiable: true }, token);
    if (made.status !== 201) throw new Error(`position: ${made.status} ${JSON.stringify(made.body)}`);
  }

  const { page } = browser;
  await signIn(page, ADMIN.matric, ADMIN.password, "password");
  await page.goto("/admin/credentials");
  await page.getByRole("button", { name: "Generate credentials" }).waitFor();
  await page.evaluate(() => {
    const probe: Probe = { longTasks: [], worstLateness: 0 };
    (window as unknown as { probe: Probe }).probe = probe;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) probe.longTasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: "longtask" });
    let due = performance.now() + 50;
    setInterval(() => {
      const now = performance.now();
      probe.worstLateness = Math.max(probe.worstLateness, now - due);
      due = now + 50;
    }, 50);
  });
  const now = () => page.evaluate(() => performance.now());
  const take = () => page.evaluate(() => {
    const p = (window as unknown as { probe: Probe }).probe;
    const out = { longTasks: p.longTasks.splice(0), worstLateness: p.worstLateness };
    p.worstLateness = 0;
    return out;
  });
  const phases: { phase: string; seconds: number; longTasks: number; longest: number; worstTimerLateness: number }[] = [];
  let from = await now();
  const phase = async (name: string) => {
    const at = await now();
    const p = await take();
    phases.push({
      phase: name,
      seconds: Number(((at - from) / 1000).toFixed(1)),
      longTasks: p.longTasks.length,
      longest: Math.round(Math.max(0, ...p.longTasks.map((t) => t.duration))),
      worstTimerLateness: Math.round(p.worstLateness),
    });
    from = at;
  };

  await page.getByRole("button", { name: "Generate credentials" }).click();
  await page.getByRole("dialog", { name: "Generate Credentials" }).getByRole("button", { name: "Generate" }).click();
  await page.getByText(/^Generating credentials:/).first().waitFor({ timeout: 120_000 });
  await phase("roll read");
  await page.getByText(/^Uploading public credentials:/).first().waitFor({ timeout: 1_800_000 });
  await phase("credentials made (worker)");
  await page.getByRole("list", { name: "Credential slips" }).waitFor({ timeout: 1_800_000 });
  await phase("upload");
  await page.getByText(`All ${VOTERS.toLocaleString("en")} slips are drawn.`).waitFor({ timeout: 1_800_000 });
  await phase("slips drawn");
  const slips = await page.getByTestId("slip-credential").count();
  // The whole sheet laid out, as printing does.
  const printed = await page.evaluate(() => {
    const t = performance.now();
    document.querySelectorAll<HTMLElement>("#credential-slips [role=none]").forEach((e) => (e.style.contentVisibility = "visible"));
    void document.getElementById("credential-slips")!.getBoundingClientRect().height;
    return performance.now() - t;
  });
  console.log(JSON.stringify({ voters: VOTERS, positions: POSITIONS, slips, loadAverage: loadavg().map((n) => n.toFixed(1)).join(" "), phases, wholeSheetLayoutMs: Math.round(printed) }, null, 2));
} finally {
  await browser.close();
  await server.stop();
}
