import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MAX_ROLL_ROWS, messages, type RollReport } from "@evoting/shared";
import { ADMIN, createTestApp, type TestApp } from "../../test/harness.ts";

let t: TestApp;
let admin: string;
beforeEach(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
});
afterEach(async () => t.close());

const HEADER = "matricNumber,name,dateOfBirth,email,groups";
const csv = (...lines: string[]) => [HEADER, ...lines].join("\r\n") + "\r\n";

function upload(body: string | FormData, dryRun: boolean, token = admin, type = "text/csv") {
  return t.request(`/admin/voters/import?dryRun=${dryRun ? 1 : 0}`, {
    method: "POST",
    token,
    body,
    headers: typeof body === "string" ? { "content-type": type } : {},
  });
}
const report = async (res: Response) => (await res.json()) as RollReport & { message?: string };
const userCount = async () => Number((await t.database.client.execute("SELECT count(*) AS n FROM users")).rows[0].n);

const GOOD = [
  "2020/5570001,Ada Obi,20020515,ada@uniport.edu.ng,300L;Software",
  '2020/5570002,"Bello, ""Tunde""",20010101,,300L',
  "2020/5570003,Chi Eze,20030303,,",
];

describe("import: checking a file", () => {
  it("previews counts without writing anything, then applies them", async () => {
    const before = await userCount();
    const dry = await upload(csv(...GOOD), true);
    expect(dry.status).toBe(200);
    expect(await report(dry)).toEqual({ dryRun: true, total: 3, created: 3, updated: 0, unchanged: 0, errors: [] });
    expect(await userCount()).toBe(before);

    const applied = await upload(csv(...GOOD), false);
    expect(applied.status).toBe(200);
    expect(await report(applied)).toMatchObject({ dryRun: false, created: 3, errors: [], message: messages.rollImportSuccess });
    expect(await userCount()).toBe(before + 3);
    // Quotes, commas and groups came through; the voter signs in with the date of birth.
    const list = await (await t.request("/admin/voters?query=bello", { token: admin })).json();
    expect(list.items[0]).toMatchObject({ name: 'Bello, "Tunde"', groups: ["300L"], hasPassword: false, hasVoted: false });
    await t.login("2020/5570002", { dateOfBirth: 20010101 });
  });

  it("reports every error kind with its line and column, in file order", async () => {
    const bad = csv(
      "2020/5570001,Ada Obi,20020515,,",
      "2020-5570002,Bad Matric,20020515,,",
      "2020/5570003,,20020515,,",
      "2020/5570004,Bad Date,20021345,,",
      "2020/5570005,Bad Email,20020515,x@gmail.com,",
      "2020/5570001,Again,20020515,,",
      `${ADMIN.matricNumber},Not A Voter,20020515,,`,
    );
    const res = await upload(bad, true);
    expect(res.status).toBe(200);
    expect((await report(res)).errors).toEqual([
      { line: 3, column: "matricNumber", message: messages.matricFormat },
      { line: 4, column: "name", message: messages.nameRequired },
      { line: 5, column: "dateOfBirth", message: messages.dobFormat },
      { line: 6, column: "email", message: messages.emailDomain },
      { line: 7, column: "matricNumber", message: "Duplicate matriculation number in this file (first on line 2)" },
      { line: 8, column: "matricNumber", message: messages.rollStaffMatric },
    ]);
  });

  it("writes nothing when any row is wrong (400 with the same report)", async () => {
    const before = await userCount();
    const res = await upload(csv(GOOD[0], GOOD[1], "2020/5570003,Chi,2003,,"), false);
    expect(res.status).toBe(400);
    const body = await report(res);
    expect(body).toMatchObject({ dryRun: false, total: 3, created: 2, message: messages.rollHasErrors });
    expect(body.errors).toEqual([{ line: 4, column: "dateOfBirth", message: messages.dobFormat }]);
    expect(await userCount()).toBe(before);
  });

  it("handles a BOM, any header case and spacing, CRLF or LF, blank lines and multipart", async () => {
    const text = "\uFEFFMATRIC NUMBER,Name,Date Of Birth\n\n2020/5570001,Ada,20020515\r\n,,\r\n2020/5570002,\"Line\nBreak\",20020515\n";
    const res = await upload(text, true);
    expect(await report(res)).toMatchObject({ total: 2, created: 2 });
    // A quoted field across two lines: later rows keep their own line numbers.
    const multi = await upload(csv('2020/5570001,"Two\r\nLines",20020515,,', "2020/5570002,Bad,2002,,"), true);
    expect((await report(multi)).errors).toEqual([{ line: 4, column: "dateOfBirth", message: messages.dobFormat }]);
    const form = new FormData();
    form.set("file", new Blob([csv(...GOOD)], { type: "application/vnd.ms-excel" }), "roll.csv");
    expect(await report(await upload(form, false))).toMatchObject({ created: 3, errors: [] });
  });

  it("names header problems on line 1", async () => {
    const res = await upload("matric,name,phone\n2020/5570001,Ada,080\n", true);
    expect((await report(res)).errors).toEqual([
      { line: 1, column: "phone", message: 'Unknown column "phone"; expected matricNumber, name, dateOfBirth, email, groups' },
      { line: 1, column: "dateOfBirth", message: 'Missing column "dateOfBirth"' },
    ]);
    expect((await report(await upload("", true))).errors[0].message).toBe(messages.rollEmpty);
    expect((await report(await upload('matricNumber,name,dateOfBirth\n"2020/5570001,Ada,1\n', true))).errors[0]).toMatchObject({ line: 2, column: "" });
    expect((await report(await upload(csv("2020/5570001,Ada,20020515,,,surplus"), true))).errors[0]).toMatchObject({ line: 2, column: "" });
  });
});

describe("import: re-importing", () => {
  it("the same file changes nothing; a corrected file updates only what changed", async () => {
    await upload(csv(...GOOD), false);
    expect(await report(await upload(csv(...GOOD), false))).toMatchObject({ created: 0, updated: 0, unchanged: 3 });

    const corrected = csv(GOOD[0], "2020/5570002,Tunde Bello,20010101,,300L", "2020/5570003,Chi Eze,20030304,,400L", "2020/5570004,New,20000101,,");
    const dry = await report(await upload(corrected, true));
    expect(dry).toMatchObject({ total: 4, created: 1, updated: 2, unchanged: 1, errors: [] });
    await upload(corrected, false);
    await t.login("2020/5570003", { dateOfBirth: 20030304 });
    const old = await t.request("/auth/login", { method: "POST", json: { matricNumber: "2020/5570003", dateOfBirth: 20030303 } });
    expect(old.status).toBe(401);
  });

  it("updates a voter who has voted without touching their vote", async () => {
    await upload(csv(...GOOD), false);
    const { position, candidates } = await t.openElection(admin);
    const voter = await t.login("2020/5570001", { dateOfBirth: 20020515 });
    const vote = await t.request("/vote", { method: "POST", token: voter.token, json: { positionId: position._id, candidateId: candidates[0]._id } });
    expect(vote.status).toBe(201);

    const res = await upload(csv("2020/5570001,Ada Obi-Eze,20020516,,300L"), false);
    expect(await report(res)).toMatchObject({ updated: 1 });
    const results = await (await t.request("/vote/results", { token: admin })).json();
    expect(results.totalVotesCast).toBe(1);
    const again = await t.login("2020/5570001", { dateOfBirth: 20020516 });
    const mine = await (await t.request("/vote/my-votes", { token: again.token })).json();
    expect(mine).toHaveLength(1);
  });
});

describe("import: limits and access", () => {
  it("refuses more than 20,000 rows and more than 5 MB with 413", async () => {
    const rows = Array.from({ length: MAX_ROLL_ROWS + 1 }, (_, i) => `2020/5570${i},N,20020515`);
    const many = await upload(["matricNumber,name,dateOfBirth", ...rows].join("\n"), true);
    expect(many.status).toBe(413);
    expect((await many.json()).message).toBe(messages.rollTooManyRows);
    const big = await upload("matricNumber,name,dateOfBirth\n" + "x".repeat(5 * 1024 * 1024 + 70_000), true);
    expect(big.status).toBe(413);
    expect((await big.json()).message).toBe(messages.rollTooLarge);
  });

  it("refuses other media types and non-UTF-8 bytes", async () => {
    expect((await upload(csv(...GOOD), true, admin, "application/json")).status).toBe(415);
    const latin1 = await t.request("/admin/voters/import", {
      method: "POST",
      token: admin,
      body: new Uint8Array([0x6e, 0x61, 0x6d, 0x65, 0x0a, 0xe9, 0x0a]),
      headers: { "content-type": "text/csv" },
    });
    expect(latin1.status).toBe(400);
    expect((await latin1.json()).message).toBe(messages.rollNotUtf8);
  });

  it("is for admins only: 401 anonymous, 403 voters and observers", async () => {
    const voter = await t.createVoter(admin);
    const observer = await t.request("/admin/users", {
      method: "POST",
      token: admin,
      json: { name: "Watcher", matricNumber: "0000/5570009", role: "observer", password: "observe-1" },
    });
    expect(observer.status).toBe(201);
    const obs = await t.login("0000/5570009", { password: "observe-1" });
    expect((await t.request("/admin/voters/import", { method: "POST", body: "x", headers: { "content-type": "text/csv" } })).status).toBe(401);
    expect((await upload(csv(...GOOD), true, voter.token)).status).toBe(403);
    expect((await upload(csv(...GOOD), true, obs.token)).status).toBe(403);
  });

  it("records the applied import in the audit log, never a date of birth", async () => {
    await upload(csv(...GOOD), false);
    const rows = await t.database.client.execute("SELECT action, summary, target FROM audit_log WHERE action = 'voters.import'");
    expect(rows.rows).toHaveLength(1);
    expect(String(rows.rows[0].summary)).toContain("3 created");
    const all = await t.database.client.execute("SELECT summary || target AS text FROM audit_log");
    for (const r of all.rows) expect(String(r.text)).not.toMatch(/2002-?05-?15|20020515/);
  });
});
