import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { messages, type VoterPage } from "@evoting/shared";
import { hashSecret } from "../../security/passwords.ts";
import { createTestApp, type TestApp } from "../../test/harness.ts";

let t: TestApp;
let admin: string;
beforeEach(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
});
afterEach(async () => t.close());

const ROLL = [
  "matricNumber,name,dateOfBirth,email,groups",
  "2020/5570001,Ada Obi,20020515,,300L;Software",
  "2020/5570002,Bola Ade,20010101,,300L",
  "2020/5570003,Chi Eze,20030303,,400L",
  '2021/5570004,"=HYPERLINK(""http://x"")",20000101,,-team',
].join("\n");

async function importRoll(text = ROLL) {
  const res = await t.request("/admin/voters/import?dryRun=0", { method: "POST", token: admin, body: text, headers: { "content-type": "text/csv" } });
  expect(res.status, await res.clone().text()).toBe(200);
}
const list = async (qs = "", token = admin) => {
  const res = await t.request(`/admin/voters${qs}`, { token });
  expect(res.status).toBe(200);
  return (await res.json()) as VoterPage;
};
const idOf = async (matric: string) => (await list(`?query=${encodeURIComponent(matric)}`)).items[0]._id;

async function voteAs(matricNumber: string, dateOfBirth: number) {
  const { position, candidates } = await t.openElection(admin);
  const voter = await t.login(matricNumber, { dateOfBirth });
  const res = await t.request("/vote", { method: "POST", token: voter.token, json: { positionId: position._id, candidateId: candidates[0]._id } });
  expect(res.status).toBe(201);
  return voter;
}

async function observerToken() {
  const json = { name: "Watcher", matricNumber: "0000/5570009", role: "observer", password: "observe-1" };
  expect((await t.request("/admin/users", { method: "POST", token: admin, json })).status).toBe(201);
  return (await t.login("0000/5570009", { password: "observe-1" })).token;
}

describe("GET /admin/voters", () => {
  it("lists voters only, searches, filters by group and voted, pages", async () => {
    await importRoll();
    await voteAs("2020/5570002", 20010101);
    const all = await list();
    expect(all).toMatchObject({ total: 4, page: 1, pageSize: 50 });
    expect(all.items.map((v) => v.matricNumber)).toEqual(["2020/5570001", "2020/5570002", "2020/5570003", "2021/5570004"]);
    expect(all.items[0]).toEqual({ _id: expect.any(String), name: "Ada Obi", matricNumber: "2020/5570001", email: null, groups: ["300L", "Software"], hasPassword: false, hasVoted: false });

    expect((await list("?query=eze")).items.map((v) => v.name)).toEqual(["Chi Eze"]);
    expect((await list("?query=2021%2F5570")).total).toBe(1);
    expect((await list("?query=%25")).total).toBe(0); // "%" is matched as typed, not as a wildcard
    expect((await list("?query=CHI")).total).toBe(1); // any case
    expect((await list("?group=300L")).total).toBe(2);
    expect((await list("?voted=yes")).items.map((v) => v.matricNumber)).toEqual(["2020/5570002"]);
    expect((await list("?voted=no&group=300L")).items.map((v) => v.matricNumber)).toEqual(["2020/5570001"]);
    const groups = await (await t.request("/admin/voters/groups", { token: admin })).json();
    expect(groups).toEqual({ groups: [{ name: "-team", voters: 1 }, { name: "300L", voters: 2 }, { name: "400L", voters: 1 }, { name: "Software", voters: 1 }] });
    const page2 = await list("?page=2&pageSize=3");
    expect(page2).toMatchObject({ total: 4, page: 2, pageSize: 3 });
    expect(page2.items).toHaveLength(1);
  });

  it("answers 400 for a bad page and 403 to voters", async () => {
    expect((await t.request("/admin/voters?page=0", { token: admin })).status).toBe(400);
    expect((await t.request("/admin/voters?pageSize=1000", { token: admin })).status).toBe(400);
    const voter = await t.createVoter(admin);
    expect((await t.request("/admin/voters", { token: voter.token })).status).toBe(403);
  });
});

describe("PATCH /admin/voters/:id", () => {
  it("corrects a date of birth: the voter signs in with the new one only", async () => {
    await importRoll();
    const id = await idOf("2020/5570003");
    const res = await t.request(`/admin/voters/${id}`, { method: "PATCH", token: admin, json: { dateOfBirth: 20030330, groups: "400L; Hardware", email: "chi@uniport.edu.ng" } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ _id: id, groups: ["400L", "Hardware"], email: "chi@uniport.edu.ng", message: messages.updateVoterSuccess });
    await t.login("2020/5570003", { dateOfBirth: 20030330 });
    expect((await t.request("/auth/login", { method: "POST", json: { matricNumber: "2020/5570003", dateOfBirth: 20030303 } })).status).toBe(401);
    // Audited by field name; the date itself never enters the log.
    const logged = await t.database.client.execute("SELECT summary FROM audit_log WHERE action = 'voter.update'");
    expect(String(logged.rows[0].summary)).toBe("Edited voter 2020/5570003: dateOfBirth, email, groups");
    const all = await t.database.client.execute("SELECT group_concat(summary || target) AS text FROM audit_log");
    expect(String(all.rows[0].text)).not.toContain("20030330");
  });

  it("validates like create, and 404s a staff account or unknown id", async () => {
    await importRoll();
    const id = await idOf("2020/5570001");
    const cases: [unknown, string][] = [
      [{ name: "" }, messages.nameRequired],
      [{ dateOfBirth: 2002 }, messages.dobFormat],
      [{ email: "a@gmail.com" }, messages.emailDomain],
      [{ groups: ["x".repeat(41)] }, messages.groupTooLong],
    ];
    for (const [json, message] of cases) {
      const res = await t.request(`/admin/voters/${id}`, { method: "PATCH", token: admin, json });
      expect(res.status).toBe(400);
      expect((await res.json()).message).toBe(message);
    }
    const adminId = (await (await t.request("/auth/profile", { token: admin })).json())._id;
    expect((await t.request(`/admin/voters/${adminId}`, { method: "PATCH", token: admin, json: { name: "X" } })).status).toBe(404);
    expect((await t.request("/admin/voters/nope", { method: "PATCH", token: admin, json: { name: "X" } })).status).toBe(404);
  });

  it("edits a voter who has voted and leaves the vote alone", async () => {
    await importRoll();
    const voter = await voteAs("2020/5570001", 20020515);
    const before = await (await t.request("/vote/results", { token: admin })).json();
    const id = await idOf("2020/5570001");
    expect((await t.request(`/admin/voters/${id}`, { method: "PATCH", token: admin, json: { name: "Ada Obi-Eze", dateOfBirth: 20020516 } })).status).toBe(200);
    expect(await (await t.request("/vote/results", { token: admin })).json()).toEqual(before);
    // The new date of birth ended the old session; signed in with it, the vote is still theirs.
    expect((await t.request("/vote/my-votes", { token: voter.token })).status).toBe(401);
    const again = await t.login("2020/5570001", { dateOfBirth: 20020516 });
    expect(await (await t.request("/vote/my-votes", { token: again.token })).json()).toHaveLength(1);
    expect((await list("?query=Obi-Eze")).items[0]).toMatchObject({ hasVoted: true });
  });
});

describe("POST /admin/voters/:id/reset-password", () => {
  it("removes the password and ends the voter's sessions", async () => {
    await importRoll();
    const voter = await t.login("2020/5570001", { dateOfBirth: 20020515 });
    expect((await t.request("/auth/password", { method: "PUT", token: voter.token, json: { currentPassword: "20020515", newPassword: "my-secret" } })).status).toBe(200);
    const withPassword = await t.login("2020/5570001", { password: "my-secret" });
    expect((await list("?query=2020%2F5570001")).items[0].hasPassword).toBe(true);

    const res = await t.request(`/admin/voters/${voter.user._id}/reset-password`, { method: "POST", token: admin });
    expect(res.status).toBe(204);
    expect((await t.request("/auth/profile", { token: withPassword.token })).status).toBe(401);
    expect((await (await t.request("/auth/check-user", { method: "POST", json: { matricNumber: "2020/5570001" } })).json()).requiresPassword).toBe(false);
    await t.login("2020/5570001", { dateOfBirth: 20020515 });
  });
});

describe("DELETE /admin/voters/:id", () => {
  it("deletes a voter who has not voted; refuses one who has (409)", async () => {
    await importRoll();
    await voteAs("2020/5570002", 20010101);
    const before = await (await t.request("/vote/results", { token: admin })).json();
    const refused = await t.request(`/admin/voters/${await idOf("2020/5570002")}`, { method: "DELETE", token: admin });
    expect(refused.status).toBe(409);
    expect((await refused.json()).message).toBe(messages.voterHasVoted);
    expect((await list()).total).toBe(4);

    const id = await idOf("2020/5570003");
    expect((await t.request(`/admin/voters/${id}`, { method: "DELETE", token: admin })).status).toBe(204);
    expect((await list()).total).toBe(3);
    expect((await t.request(`/admin/voters/${id}`, { method: "DELETE", token: admin })).status).toBe(404);
    // The live results may serve their last snapshot for a moment after a costly recompute.
    const registered = async () => (await (await t.request("/vote/results", { token: admin })).json()).totalRegisteredVoters;
    await expect.poll(registered, { timeout: 10_000, interval: 100 }).toBe(before.totalRegisteredVoters - 1);
  });
});

describe("GET /admin/voters/export.csv", () => {
  it("exports the roll with escaped formula cells and no hashes", async () => {
    await importRoll();
    await voteAs("2020/5570002", 20010101);
    const res = await t.request("/admin/voters/export.csv", { token: admin });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/csv/);
    const text = await res.text();
    const lines = text.trim().split("\r\n");
    expect(lines[0]).toBe("matricNumber,name,email,groups,hasPassword,voted");
    expect(lines[1]).toBe("2020/5570001,Ada Obi,,300L;Software,false,false");
    expect(lines[2]).toBe("2020/5570002,Bola Ade,,300L,false,true");
    expect(lines[4]).toBe(`2021/5570004,"'=HYPERLINK(""http://x"")",,'-team,false,false`);
    expect(text).not.toMatch(/hmac1|argon2|2002051/);
  });
});

describe("observers and the roll", () => {
  it("may read the list and export; every write is 403", async () => {
    await importRoll();
    const observer = await observerToken();
    const id = await idOf("2020/5570001");
    expect((await list("", observer)).total).toBe(4);
    expect((await t.request("/admin/voters/export.csv", { token: observer })).status).toBe(200);
    expect((await t.request(`/admin/voters/${id}`, { method: "PATCH", token: observer, json: { name: "X" } })).status).toBe(403);
    expect((await t.request(`/admin/voters/${id}/reset-password`, { method: "POST", token: observer })).status).toBe(403);
    expect((await t.request(`/admin/voters/${id}`, { method: "DELETE", token: observer })).status).toBe(403);
    expect((await t.request("/admin/users", { method: "POST", token: observer, json: { name: "A", matricNumber: "2020/5570099", dateOfBirth: 20020515 } })).status).toBe(403);
  });
});

describe("POST /admin/users with groups, role and password", () => {
  it("creates staff who sign in by password only, and voters with groups", async () => {
    const officer = await t.request("/admin/users", { method: "POST", token: admin, json: { name: "Officer", matricNumber: "0000/5570010", role: "officer", password: "officer-1", dateOfBirth: 20020515 } });
    expect(officer.status).toBe(201);
    expect(await officer.json()).toMatchObject({ role: "officer", hasPassword: true });
    expect((await t.request("/auth/login", { method: "POST", json: { matricNumber: "0000/5570010", dateOfBirth: 20020515 } })).status).toBe(400);
    await t.login("0000/5570010", { password: "officer-1" });

    const noPassword = await t.request("/admin/users", { method: "POST", token: admin, json: { name: "Obs", matricNumber: "0000/5570011", role: "observer" } });
    expect(noPassword.status).toBe(400);
    expect((await noPassword.json()).message).toBe(messages.passwordRequired);

    const voter = await t.request("/admin/users", { method: "POST", token: admin, json: { name: "V", matricNumber: "2020/5570050", dateOfBirth: 20020515, groups: ["300L"] } });
    expect(await voter.json()).toMatchObject({ role: "voter", groups: ["300L"], hasPassword: false });
    expect((await list("?group=300L")).total).toBe(1);
    expect((await list()).items.map((v) => v.matricNumber)).toEqual(["2020/5570050"]); // staff are not on the roll
  });
});

describe("dates of birth under a keyed hash", () => {
  it("stores no argon2 hash and nothing a database copy alone can check", async () => {
    await importRoll();
    const rows = await t.database.client.execute("SELECT matric_number, dob_hash FROM users WHERE role = 'voter'");
    const hashes = rows.rows.map((r) => String(r.dob_hash));
    for (const h of hashes) expect(h).toMatch(/^hmac1\$[A-Za-z0-9_-]{43}$/);
    expect(new Set(hashes).size).toBe(hashes.length);
  });

  it("upgrades an old argon2id hash at the voter's next successful sign-in", async () => {
    await importRoll();
    const legacy = await hashSecret("20020515");
    await t.database.client.execute({ sql: "UPDATE users SET dob_hash = ? WHERE matric_number = '2020/5570001'", args: [legacy] });
    expect((await t.request("/auth/login", { method: "POST", json: { matricNumber: "2020/5570001", dateOfBirth: 20020516 } })).status).toBe(401);
    const stillOld = await t.database.client.execute("SELECT dob_hash FROM users WHERE matric_number = '2020/5570001'");
    expect(String(stillOld.rows[0].dob_hash)).toBe(legacy);
    await t.login("2020/5570001", { dateOfBirth: 20020515 });
    await t.database.writer.drain();
    const upgraded = await t.database.client.execute("SELECT dob_hash FROM users WHERE matric_number = '2020/5570001'");
    expect(String(upgraded.rows[0].dob_hash)).toMatch(/^hmac1\$/);
    await t.login("2020/5570001", { dateOfBirth: 20020515 });
  });
});
