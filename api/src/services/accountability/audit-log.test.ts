/**
 * The audit trail: every admin action leaves exactly one entry and no secret; the
 * chain and the signed head catch an edited, removed, truncated or forged entry; `npm run
 * audit` names the broken row and fails.
 */
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../../db/client.ts";
import { keysFromMaster } from "../../security/keys.ts";
import { ADMIN, createTestApp, TINY_PNG, type TestApp } from "../../test/harness.ts";
import { runAudit } from "../../scripts/audit.ts";
import { backupDatabase, recordBackup } from "../../scripts/backup.ts";
import { AuditLog, verifyAuditChain } from "./audit-log.ts";

let t: TestApp;
beforeEach(async () => (t = await createTestApp()));
afterEach(async () => t.close());

const rows = async (database: Database) =>
  (await database.client.execute("SELECT seq, action, target, summary, actor_name, actor_matric, address FROM audit_log ORDER BY seq")).rows;

/** What an attacker with the database file does first: the triggers are only a guard rail. */
const dropGuards = (database: Database) =>
  database.client.batch(["DROP TRIGGER audit_log_no_update", "DROP TRIGGER audit_log_no_delete"], "write");

describe("every audited action leaves exactly one entry, with no secret in it", () => {
  it("sign-ins, creates, deletes and chat moderation", async () => {
    const secrets: string[] = [ADMIN.password, "wrong-password-1", "observer-pass-1", "20020515", "2002-05-15"];
    let seen = (await rows(t.database)).length;
    const step = async (expectedAction: string, act: () => Response | Promise<Response>, status: number) => {
      const res = await act();
      expect(res.status, expectedAction).toBe(status);
      const all = await rows(t.database);
      expect(all.length, `${expectedAction} leaves one entry`).toBe(seen + 1);
      seen = all.length;
      const entry = all.at(-1)!;
      expect(entry.action).toBe(expectedAction);
      const text = JSON.stringify(entry);
      for (const s of secrets) expect(text, `${expectedAction} holds no secret`).not.toContain(s);
      return res;
    };
    const login = (password: string) => t.request("/auth/login", { method: "POST", json: { matricNumber: ADMIN.matricNumber, password } });

    const signedIn = await step("auth.login", () => login(ADMIN.password), 200);
    const admin = ((await signedIn.json()) as { token: string }).token;
    await step("auth.login.failed", () => login("wrong-password-1"), 401);
    const now = t.clock.now();
    const created = await step(
      "position.create",
      () =>
        t.request("/admin/positions", {
          method: "POST",
          token: admin,
          json: { title: "President", startTime: new Date(now - 3_600_000).toISOString(), endTime: new Date(now + 3_600_000).toISOString() },
        }),
      201,
    );
    const positionId = ((await created.json()) as { _id: string })._id;
    const form = new FormData();
    form.set("name", "Ada");
    form.set("positionId", positionId);
    form.set("photo", new Blob([TINY_PNG], { type: "image/png" }), "a.png");
    const candidate = await step("candidate.create", () => t.request("/admin/candidates", { method: "POST", token: admin, body: form }), 201);
    const candidateId = ((await candidate.json()) as { _id: string })._id;
    const user = await step(
      "user.create",
      () => t.request("/admin/users", { method: "POST", token: admin, json: { name: "Voter One", matricNumber: "2020/5570111", dateOfBirth: 20020515 } }),
      201,
    );
    const voterId = ((await user.json()) as { _id: string })._id;
    await step(
      "user.create",
      () =>
        t.request("/admin/users", {
          method: "POST",
          token: admin,
          json: { name: "Olu Observer", matricNumber: "2020/5570112", role: "observer", password: "observer-pass-1" },
        }),
      201,
    );
    const voter = await t.login("2020/5570111", { dateOfBirth: 20020515 }); // a voter's sign-in is not an admin action
    expect((await rows(t.database)).length).toBe(seen);
    const posted = await t.request("/chat/messages", { method: "POST", token: voter.token, json: { text: "hello" } });
    const messageId = ((await posted.json()) as { id: number }).id;
    await step("chat.remove", () => t.request(`/chat/messages/${messageId}`, { method: "DELETE", token: admin }), 200);
    await step("chat.mute", () => t.request("/chat/mutes", { method: "POST", token: admin, json: { userId: voterId, minutes: 5 } }), 200);
    await step("chat.unmute", () => t.request(`/chat/mutes/${voterId}`, { method: "DELETE", token: admin }), 200);
    await step("candidate.delete", () => t.request(`/admin/candidates/${candidateId}`, { method: "DELETE", token: admin }), 200);
    await step("position.delete", () => t.request(`/admin/positions/${positionId}`, { method: "DELETE", token: admin }), 200);

    // A refused action changes nothing, the log included.
    expect((await t.request(`/admin/positions/${positionId}`, { method: "DELETE", token: admin })).status).toBe(404);
    expect((await rows(t.database)).length).toBe(seen);

    const last = (await rows(t.database)).at(-1)!;
    expect(last).toMatchObject({ actor_name: ADMIN.name, actor_matric: ADMIN.matricNumber, address: "127.0.0.1" });
    expect(last.summary).toBe("Deleted position President");
    expect(await verifyAuditChain(t.database, t.deps.keys.audit)).toMatchObject({ problems: [], anchor: "ok", entries: seen });
  });
});

describe("backups", () => {
  it("a backup leaves one entry by the server operator in the source database", async () => {
    const dir = mkdtempSync(join(tmpdir(), "evoting-backup-audit-"));
    try {
      const before = (await rows(t.database)).length;
      const result = await backupDatabase(t.database.url, join(dir, "copy.db"));
      await recordBackup(t.database.url, t.deps.keys, result, t.clock.now());
      const all = await rows(t.database);
      expect(all).toHaveLength(before + 1);
      expect(all.at(-1)).toMatchObject({ action: "backup", actor_name: "Server operator", address: "console", target: `file:${result.out}` });
      expect(await verifyAuditChain(t.database, t.deps.keys.audit)).toMatchObject({ problems: [], anchor: "ok" });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("tamper evidence", () => {
  async function fill(n: number) {
    const appended = [];
    for (let i = 0; i < n; i++) {
      appended.push(
        await t.deps.auditLog.append({
          action: "test.entry",
          target: `thing:${i}`,
          summary: `Entry ${i}`,
          actor: { id: null, name: "Tester", matricNumber: "-" },
          address: "local",
          at: t.clock.now() + i,
        }),
      );
    }
    return appended;
  }

  it("the database itself refuses to edit or delete an entry", async () => {
    await fill(2);
    await expect(t.database.client.execute("UPDATE audit_log SET summary = 'x' WHERE seq = 1")).rejects.toThrow(/append-only/);
    await expect(t.database.client.execute("DELETE FROM audit_log WHERE seq = 2")).rejects.toThrow(/append-only/);
  });

  it("concurrent appends keep one chain", async () => {
    await Promise.all(Array.from({ length: 25 }, () => fill(1)));
    expect(await verifyAuditChain(t.database, t.deps.keys.audit)).toMatchObject({ entries: 25, headSeq: 25, problems: [], anchor: "ok" });
  });

  it("names an edited entry, a removed one, a truncated end and a forged append", async () => {
    const entries = await fill(5);
    expect((await runAudit(t.database, t.deps.keys)).ok).toBe(true);
    await dropGuards(t.database);

    await t.database.client.execute("UPDATE audit_log SET summary = 'Nothing happened' WHERE seq = 2");
    let report = await runAudit(t.database, t.deps.keys);
    expect(report.ok).toBe(false);
    expect(report.lines).toEqual([`Audit log entry 2 (${entries[1].id}): was changed after it was written`]);
    await t.database.client.execute({ sql: "UPDATE audit_log SET summary = ? WHERE seq = 2", args: [entries[1].summary] });

    await t.database.client.execute("DELETE FROM audit_log WHERE seq = 3");
    report = await runAudit(t.database, t.deps.keys);
    expect(report.lines).toEqual([
      `Audit log entry 4 (${entries[3].id}): entry 3 is missing`,
      `Audit log entry 4 (${entries[3].id}): does not follow the entry before it`,
    ]);
    // Read a page at a time, the walk finds the same (pages of 2 cut across the gap).
    expect((await verifyAuditChain(t.database, t.deps.keys.audit, 2)).problems).toEqual(report.auditLog.problems);
  });

  it("the signed head catches the newest entries removed, which the chain alone cannot", async () => {
    await fill(4);
    expect(await verifyAuditChain(t.database, t.deps.keys.audit, 3)).toMatchObject({ entries: 4, headSeq: 4, problems: [], anchor: "ok" });
    await dropGuards(t.database);
    await t.database.client.execute("DELETE FROM audit_log WHERE seq >= 3");
    expect((await verifyAuditChain(t.database, null)).problems).toEqual([]); // the chain alone: still valid
    const report = await runAudit(t.database, t.deps.keys);
    expect(report.ok).toBe(false);
    expect(report.lines).toEqual(["Audit log entry 4: entries 3-4 were removed from the end of the log"]);
  });

  it("an entry appended or re-signed without the server key is named", async () => {
    await fill(2);
    // Someone with the file but not the key appends a well-chained entry.
    const otherKey = keysFromMaster(randomBytes(32));
    const copy = await openDatabase({ url: t.database.url });
    const forged = await new AuditLog(copy, otherKey).append({ action: "test.entry", target: "", summary: "forged", actor: { id: null, name: "X", matricNumber: "-" }, address: "x", at: 0 });
    await copy.writer.drain();
    copy.close();
    const report = await runAudit(t.database, t.deps.keys);
    expect(report.lines).toEqual([`Audit log entry 3: the signed head of the log was altered`]);
    expect(forged.seq).toBe(3);
  });
});

describe("npm run audit", () => {
  it("exits 0 on an intact log and 1 naming the edited entry", async () => {
    const dir = mkdtempSync(join(tmpdir(), "evoting-audit-"));
    const master = randomBytes(32).toString("hex");
    const url = `file:${join(dir, "audit.db")}`;
    try {
      const database = await openDatabase({ url });
      const log = new AuditLog(database, keysFromMaster(Buffer.from(master, "hex")));
      for (let i = 0; i < 3; i++) {
        await log.append({ action: "test.entry", target: "", summary: `Entry ${i}`, actor: { id: null, name: "T", matricNumber: "-" }, address: "local", at: i });
      }
      await database.writer.drain();
      const run = () =>
        promisify(execFile)("node", ["--import", "tsx", resolve(import.meta.dirname, "../../scripts/audit.ts")], {
          env: { ...process.env, DATABASE_URL: url, BALLOT_KEY: master },
        }).then(
          (r) => ({ code: 0, stderr: r.stderr }),
          (e: { code: number; stderr: string }) => ({ code: e.code, stderr: e.stderr }),
        );
      expect(await run()).toMatchObject({ code: 0 });
      await dropGuards(database);
      await database.client.execute("UPDATE audit_log SET actor_name = 'Someone else' WHERE seq = 2");
      database.close();
      const broken = await run();
      expect(broken.code).toBe(1);
      expect(broken.stderr).toMatch(/Audit log entry 2 \([0-9a-f-]+\): was changed after it was written/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});
