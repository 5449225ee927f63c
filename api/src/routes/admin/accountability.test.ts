/**
 * Through HTTP: the audit log's page, filters and CSV; the results CSV (one row per
 * candidate or choice, formula-escaped) and the printable sheet's digests, recomputed here;
 * the turnout report; and observers reading all of it but writing nothing.
 */
import { createHash } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AUDIT_PAGE_SIZE, PROVISIONAL_CSV_NOTE, type AuditPage, type ResultsSheet, type TurnoutReport } from "@evoting/shared";
import { createTestApp, type TestApp } from "../../test/harness.ts";

let t: TestApp;
let admin: string;
beforeEach(async () => {
  // A batch of 1: these tests read each vote in the tallies as soon as it is applied.
  t = await createTestApp({ ballotBatch: 1 });
  admin = await t.adminToken();
});
afterEach(async () => t.close());

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

const createObserver = () => t.createObserver(admin);

async function vote(token: string, positionId: string, candidateId: string) {
  const res = await t.request("/vote", { method: "POST", token, json: { positionId, candidateId } });
  expect(res.status).toBe(201);
  return (await res.json()) as { receipt?: string };
}

describe("GET /admin/audit", () => {
  it("lists newest first, 50 a page, filtered by action and by actor", async () => {
    for (let i = 0; i < 60; i++) {
      await t.deps.auditLog.append({
        action: i % 2 ? "test.odd" : "test.even",
        target: `thing:${i}`,
        summary: `Entry ${i}`,
        actor: i < 30 ? { id: null, name: "Ada Admin", matricNumber: "0000/5570001" } : { id: null, name: "Bola", matricNumber: "0000/5570002" },
        address: "10.0.0.1",
        at: t.clock.now() + i * 1000,
      });
    }
    const first = (await (await t.request("/admin/audit", { token: admin })).json()) as AuditPage;
    expect(first.pageSize).toBe(AUDIT_PAGE_SIZE);
    expect(first.items).toHaveLength(50);
    expect(first.total).toBeGreaterThanOrEqual(61); // the 60 plus the admin's sign-in
    expect(first.items[0].summary).toBe("Entry 59");
    expect(first.items[0]).toMatchObject({ action: "test.odd", actor: { name: "Bola", matricNumber: "0000/5570002" }, address: "10.0.0.1" });
    expect(first.items[0].hash).toMatch(/^[0-9a-f]{64}$/);
    expect(first.actions).toEqual(expect.arrayContaining(["auth.login", "test.even", "test.odd"]));
    const second = (await (await t.request("/admin/audit?page=2", { token: admin })).json()) as AuditPage;
    expect(second.items[0].seq).toBe(first.items[49].seq - 1);

    const odd = (await (await t.request("/admin/audit?action=test.odd", { token: admin })).json()) as AuditPage;
    expect(odd.total).toBe(30);
    expect(odd.items.every((e) => e.action === "test.odd")).toBe(true);
    const byName = (await (await t.request("/admin/audit?actor=bola&action=test.even", { token: admin })).json()) as AuditPage;
    expect(byName.total).toBe(15);
    const byMatric = (await (await t.request("/admin/audit?actor=5570001", { token: admin })).json()) as AuditPage;
    expect(byMatric.total).toBe(30);
    // LIKE wildcards in the filter are literal.
    expect(((await (await t.request("/admin/audit?actor=%25", { token: admin })).json()) as AuditPage).total).toBe(0);
    expect((await t.request("/admin/audit?page=0", { token: admin })).status).toBe(400);
  });

  it("verify reports an intact chain, then names an edited entry", async () => {
    const ok = await (await t.request("/admin/audit/verify", { token: admin })).json();
    expect(ok).toMatchObject({ ok: true, problems: [], entries: 1, headSeq: 1 });
    await t.database.client.batch(["DROP TRIGGER audit_log_no_update", "UPDATE audit_log SET summary = 'x' WHERE seq = 1"], "write");
    const broken = await (await t.request("/admin/audit/verify", { token: admin })).json();
    expect(broken.ok).toBe(false);
    expect(broken.problems).toEqual([expect.objectContaining({ seq: 1, problem: "was changed after it was written" })]);
  });

  it("exports the log as CSV with formula cells escaped", async () => {
    await t.deps.auditLog.append({
      action: "test.csv",
      target: '=HYPERLINK("http://x","y")',
      summary: "+1, said \"someone\"\nthen left",
      actor: { id: null, name: "@admin", matricNumber: "-5" },
      address: "local",
      at: t.clock.now(),
    });
    const res = await t.request("/admin/audit/export.csv?action=test.csv", { token: admin });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/csv/);
    expect(res.headers.get("content-disposition")).toMatch(/attachment; filename="audit-log.csv"/);
    const lines = (await res.text()).split("\r\n");
    expect(lines[0]).toBe("seq,at,actorName,actorMatric,action,target,summary,address,hash");
    expect(lines[1]).toContain(`,'@admin,'-5,test.csv,"'=HYPERLINK(""http://x"",""y"")","'+1, said ""someone""\nthen left",local,`);
  });
});

describe("published results", () => {
  it("results.csv has a row per candidate with votes, percentage and leading/tie (provisional until the declaration); the sheet's digests match", async () => {
    const president = await t.openElection(admin, ["Ada", "Grace", "=cmd"], "President");
    const secretary = await t.openElection(admin, ["Linus", "Margaret"], "Secretary");
    const voters = [];
    for (let i = 0; i < 4; i++) voters.push(await t.createVoter(admin));
    await vote(voters[0].token, president.position._id, president.candidates[0]._id);
    await vote(voters[1].token, president.position._id, president.candidates[0]._id);
    await vote(voters[2].token, president.position._id, president.candidates[1]._id);
    await vote(voters[0].token, secretary.position._id, secretary.candidates[0]._id);
    await vote(voters[1].token, secretary.position._id, secretary.candidates[1]._id);

    const res = await t.request("/admin/results.csv", { token: admin });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/csv/);
    const csv = await res.text();
    const [a, g, cmd] = president.candidates.map((c) => c._id);
    const [l, m] = secretary.candidates.map((c) => c._id);
    expect(csv.split("\r\n")).toEqual([
      "position,choice,candidateId,votes,percentage,outcome",
      `President,Ada,${a},2,66.67,leading`,
      `President,Grace,${g},1,33.33,`,
      `President,'=cmd,${cmd},0,0.00,`,
      `Secretary,Linus,${l},1,50.00,tie`,
      `Secretary,Margaret,${m},1,50.00,tie`,
      `${PROVISIONAL_CSV_NOTE},,,,,`,
      "",
    ]);

    const sheet = (await (await t.request("/admin/results/sheet", { token: admin })).json()) as ResultsSheet;
    expect(sheet.csvSha256).toBe(sha256(csv));
    const head = await t.database.client.execute("SELECT seq, hash FROM audit_log ORDER BY seq DESC LIMIT 1");
    expect(sheet.audit).toEqual({ entries: Number(head.rows[0].seq), headSeq: Number(head.rows[0].seq), head: String(head.rows[0].hash) });
    expect(sheet.results.totalRegisteredVoters).toBe(4);
    expect(sheet.results.totalVotesCast).toBe(3);
    expect(sheet.producedAt).toBe(new Date(t.clock.now()).toISOString());

    // One more vote: both digests' inputs move, and the sheet follows.
    await vote(voters[3].token, president.position._id, president.candidates[1]._id);
    // The export is never stale (ResultsService.current()), and the vote was applied before its 201.
    const csv2 = await (await t.request("/admin/results.csv", { token: admin })).text();
    const sheet2 = (await (await t.request("/admin/results/sheet", { token: admin })).json()) as ResultsSheet;
    expect(csv2).not.toBe(csv);
    expect(sheet2.csvSha256).toBe(sha256(csv2));
    expect(csv2).toContain(`President,Ada,${a},2,50.00,tie`);
  });

  it("turnout: ballots per hour across the window and per roll group", async () => {
    const start = t.clock.now();
    const { position, candidates } = await t.openElection(admin, ["Ada", "Grace"]);
    const grouped = async (groups: string[], matric: string) => {
      const res = await t.request("/admin/users", { method: "POST", token: admin, json: { name: `V ${matric}`, matricNumber: matric, dateOfBirth: 20020515, groups } });
      expect(res.status).toBe(201);
      return (await t.login(matric, { dateOfBirth: 20020515 })).token;
    };
    const a = await grouped(["100L"], "2020/5570801");
    const b = await grouped(["100L", "CSC"], "2020/5570802");
    await grouped(["CSC"], "2020/5570803");
    const d = await grouped([], "2020/5570804");
    await vote(a, position._id, candidates[0]._id);
    t.clock.advance(3_600_000);
    await vote(b, position._id, candidates[1]._id);
    await vote(d, position._id, candidates[1]._id);
    const report = (await (await t.request("/admin/turnout", { token: admin })).json()) as TurnoutReport;
    const hour = (ms: number) => new Date(Math.floor(ms / 3_600_000) * 3_600_000).toISOString();
    expect(report.hourly).toEqual([
      { hour: hour(start - 3_600_000), ballots: 0 },
      { hour: hour(start), ballots: 1 },
      { hour: hour(start + 3_600_000), ballots: 2 },
    ]);
    expect(report.groups).toEqual([
      { group: "", registered: 1, voted: 1 },
      { group: "100L", registered: 2, voted: 2 },
      { group: "CSC", registered: 2, voted: 1 },
    ]);
  });
});

describe("registered voters", () => {
  it("count voters only: officers and observers are in no denominator (results, sheet, turnout)", async () => {
    const { position, candidates } = await t.openElection(admin, ["Ada", "Grace"]);
    for (const [role, matric] of [["officer", "2020/5570910"], ["observer", "2020/5570911"]]) {
      const res = await t.request("/admin/users", { method: "POST", token: admin, json: { name: `Staff ${matric}`, matricNumber: matric, role, password: "staff-pass-1" } });
      expect(res.status).toBe(201);
    }
    for (let i = 0; i < 6; i++) await vote((await t.createVoter(admin)).token, position._id, candidates[i % 2]._id);
    const results = (await (await t.request("/vote/results", { token: admin })).json()) as ResultsSheet["results"];
    expect(results.totalRegisteredVoters).toBe(6);
    expect(results.results[0].eligibleVoters).toBe(6);
    const sheet = (await (await t.request("/admin/results/sheet", { token: admin })).json()) as ResultsSheet;
    expect(sheet.results.totalRegisteredVoters).toBe(6);
    const report = (await (await t.request("/admin/turnout", { token: admin })).json()) as TurnoutReport;
    expect(report.groups).toEqual([{ group: "", registered: 6, voted: 6 }]);
  });
});

describe("observers", () => {
  it("read the audit log, results, exports and turnout; every write is 403 and changes nothing", async () => {
    const observer = await createObserver();
    const { position, candidates } = await t.openElection(admin, ["Ada", "Grace"]);
    for (const path of ["/admin/audit", "/admin/audit/export.csv", "/admin/results.csv", "/admin/results/sheet", "/admin/turnout", "/admin/positions", "/admin/candidates"]) {
      expect((await t.request(path, { token: observer })).status, path).toBe(200);
    }
    const before = (await (await t.request("/admin/audit", { token: admin })).json()) as AuditPage;
    const writes: [string, string, unknown?][] = [
      ["POST", "/admin/users", { name: "X", matricNumber: "2020/5570901", dateOfBirth: 20020515 }],
      ["POST", "/admin/positions", { title: "T", startTime: new Date().toISOString(), endTime: new Date(Date.now() + 1e6).toISOString() }],
      ["DELETE", `/admin/positions/${position._id}`],
      ["DELETE", `/admin/candidates/${candidates[0]._id}`],
      ["DELETE", "/chat/messages/1"],
      ["POST", "/chat/mutes", { userId: "x", minutes: 5 }],
    ];
    for (const [method, path, json] of writes) {
      const res = await t.request(path, { method, token: observer, ...(json ? { json } : {}) });
      expect(res.status, `${method} ${path}`).toBe(403);
    }
    // Observers do not vote.
    expect((await t.request("/vote", { method: "POST", token: observer, json: { positionId: position._id, candidateId: candidates[0]._id } })).status).toBe(403);
    const after = (await (await t.request("/admin/audit", { token: admin })).json()) as AuditPage;
    expect(after.total).toBe(before.total);
    expect(((await (await t.request("/admin/positions", { token: admin })).json()) as unknown[]).length).toBe(1);
  });
});
