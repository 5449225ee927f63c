/**
 * 'Notify Voters' through HTTP, with the background sender talking to a real SMTP server
 * started here (smtp-server): who receives each kind, the words, progress and delivery,
 * retries while the server is down, a 5xx reply, a restart, and the embedded outbox.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { mailText, type NotificationsAnswer } from "@evoting/shared";
import { createTestApp, type TestApp } from "../../test/harness.ts";
import { startTestSmtp, textOf, type TestSmtp } from "../../test/smtp.ts";
import { MailQueue, INTERRUPTED_REPLY } from "../../services/mail/queue.ts";
import { createMailTransport } from "../../services/mail/transport.ts";

const HOUR = 3_600_000;
const APP_URL = "https://vote.uniport.test";
let t: TestApp;
let smtp: TestSmtp | null = null;
afterEach(async () => {
  await t.close();
  await smtp?.stop();
  smtp = null;
});

async function app(withSmtp: boolean) {
  smtp = withSmtp ? await startTestSmtp() : null;
  t = await createTestApp({
    config: {
      mail: { smtpUrl: smtp?.url, appUrl: APP_URL, reminderMs: 6 * HOUR, queue: { pollMs: 60_000, retryBaseMs: 60_000 } },
    },
  });
  const admin = await t.adminToken();
  return admin;
}

/** Imports a roll: Ada (300L) and Bola (400L) with emails, Chi without one. */
async function roll(admin: string) {
  const csv = [
    "matricNumber,name,dateOfBirth,email,groups",
    "2020/5570001,Ada Obi,20020515,ada@uniport.edu.ng,300L",
    "2020/5570002,Bola Ade,20010101,bola@uniport.edu.ng,400L",
    "2020/5570003,Chi Eze,20030303,,300L",
  ].join("\n");
  const res = await t.request("/admin/voters/import?dryRun=0", { method: "POST", token: admin, body: csv, headers: { "content-type": "text/csv" } });
  expect(res.status).toBe(200);
}

const send = (admin: string, json: unknown) => t.request("/admin/notifications", { method: "POST", token: admin, json });
const list = async (admin: string) => (await (await t.request("/admin/notifications", { token: admin })).json()) as NotificationsAnswer;
const preview = async (admin: string, query: string) => (await (await t.request(`/admin/notifications/recipients?${query}`, { token: admin })).json()).recipients as number;

describe("sending notices to a real SMTP server", () => {
  it("invites every voter with an email (or only some groups), in words that hold no secret", async () => {
    const admin = await app(true);
    await roll(admin);
    await t.openElection(admin);
    expect(await preview(admin, "kind=invitation")).toBe(2);
    expect(await preview(admin, "kind=invitation&groups=300l")).toBe(1);

    const res = await send(admin, { kind: "invitation" });
    expect(res.status).toBe(202);
    const { id, recipients } = await res.json();
    expect(recipients).toBe(2);
    await t.deps.mail.drain();
    expect(smtp?.received.map((m) => m.to[0]).sort()).toEqual(["ada@uniport.edu.ng", "bola@uniport.edu.ng"]);
    const ada = textOf(smtp?.received.find((m) => m.to[0] === "ada@uniport.edu.ng")?.raw ?? "");
    expect(ada).toContain("Dear Ada Obi,");
    expect(ada).toContain("Department Elections"); // the election's title
    expect(ada).toMatch(/Voting opens .+ and closes .+\./);
    expect(ada).toContain(`${APP_URL}/login`);
    expect(ada).toContain("Content-Type: text/html");
    for (const secret of ["20020515", "2002-05-15", "password", "2020/5570001"]) expect(ada.toLowerCase()).not.toContain(secret);

    const [one] = (await list(admin)).sends;
    expect(one).toMatchObject({ id, kind: "invitation", recipients: 2, queued: 0, sent: 2, failed: 0, lastFailure: null });
    expect((await send(admin, { kind: "invitation", groups: ["400L"] })).status).toBe(202);
    await t.deps.mail.drain();
    expect(smtp?.received.at(-1)?.to).toEqual(["bola@uniport.edu.ng"]);

    const audit = await (await t.request("/admin/audit?action=mail.send", { token: admin })).json();
    expect(audit.items.map((e: { summary: string }) => e.summary)).toEqual([
      "Queued 1 invitation message to the groups 400L",
      "Queued 2 invitation messages to every voter it applies to",
    ]);
  });

  it("reminds only voters with a vote left, at most once per REMINDER_HOURS", async () => {
    const admin = await app(true);
    await roll(admin);
    const now = t.clock.now();
    const position = await t.createPosition(admin, "President", new Date(now - HOUR).toISOString(), new Date(now + 10 * HOUR).toISOString());
    const candidates = [await t.createCandidate(admin, position._id, "Ada")];
    const ada = await t.login("2020/5570001", { dateOfBirth: 20020515 });
    expect((await t.request("/vote", { method: "POST", token: ada.token, json: { positionId: position._id, candidateId: candidates[0]._id } })).status).toBe(201);

    expect(await preview(admin, "kind=reminder")).toBe(1);
    expect(await (await send(admin, { kind: "reminder" })).json()).toMatchObject({ recipients: 1 });
    await t.deps.mail.drain();
    expect(smtp?.received.map((m) => m.to[0])).toEqual(["bola@uniport.edu.ng"]);
    expect(textOf(smtp?.received[0].raw ?? "")).toContain("You still have positions to vote for");

    expect(await (await send(admin, { kind: "reminder" })).json()).toMatchObject({ recipients: 0 });
    t.clock.advance(6 * HOUR - 60_000);
    expect(await preview(admin, "kind=reminder")).toBe(0);
    t.clock.advance(2 * 60_000); // REMINDER_HOURS after the first reminder
    expect(await preview(admin, "kind=reminder")).toBe(1);
    t.clock.advance(4 * HOUR); // the position has closed: nothing left to remind of
    expect(await preview(admin, "kind=reminder")).toBe(0);
  });

  it("sends results only after the declaration, and nothing else after it", async () => {
    const admin = await app(true);
    await roll(admin);
    await t.openElection(admin);
    const early = await send(admin, { kind: "results" });
    expect(early.status).toBe(409);
    expect((await early.json()).message).toBe(mailText.resultsNotDeclared);
    t.clock.advance(HOUR + 11 * 60_000); // past the close and the grace for offline votes
    expect((await t.request("/admin/election/declare", { method: "POST", token: admin })).status).toBe(200);
    expect((await send(admin, { kind: "invitation" })).status).toBe(409);
    expect(await (await send(admin, { kind: "results" })).json()).toMatchObject({ recipients: 2 });
    await t.deps.mail.drain();
    expect(textOf(smtp?.received[0].raw ?? "")).toContain("have been declared");
  });

  it("keeps messages queued while the server is down, retries them later, and sends each once", async () => {
    const admin = await app(true);
    await roll(admin);
    await t.openElection(admin);
    await smtp?.stop();
    expect((await send(admin, { kind: "invitation" })).status).toBe(202);
    await t.deps.mail.drain();
    let [one] = (await list(admin)).sends;
    expect(one).toMatchObject({ queued: 2, sent: 0, failed: 0 });
    expect(one.lastFailure).toMatch(/ECONNECTION|ECONNREFUSED/);

    await smtp?.start(); // back, on the same port
    await t.deps.mail.drain();
    expect(smtp?.received).toHaveLength(0); // the retry waits its turn
    t.clock.advance(60_000);
    await t.deps.mail.drain();
    [one] = (await list(admin)).sends;
    expect(one).toMatchObject({ queued: 0, sent: 2, failed: 0, lastFailure: null });
    expect(smtp?.received).toHaveLength(2);
    t.clock.advance(24 * HOUR);
    await t.deps.mail.drain();
    expect(smtp?.received).toHaveLength(2);
  });

  it("fails a message the server refuses for good, with its reply, and does not retry it", async () => {
    const admin = await app(true);
    await roll(admin);
    await t.openElection(admin);
    smtp?.refuse.add("bola@uniport.edu.ng");
    await send(admin, { kind: "invitation" });
    await t.deps.mail.drain();
    const [one] = (await list(admin)).sends;
    expect(one).toMatchObject({ queued: 0, sent: 1, failed: 1 });
    expect(one.lastFailure).toMatch(/^550 .*No such user here/);
  });

  it("resumes the queue after a restart, and never resends a message cut off mid-send", async () => {
    const admin = await app(true);
    await roll(admin);
    await t.openElection(admin);
    await smtp?.stop();
    await send(admin, { kind: "invitation" });
    await t.deps.mail.stop(); // the process stops with both messages queued
    // One of them was being sent when a process stopped: the server may have it already.
    await t.database.client.execute(
      `UPDATE mail_messages SET state = 'sending', claimed_at = ${t.clock.now()} WHERE id = (SELECT min(id) FROM mail_messages)`,
    );
    await smtp?.start();
    const restarted = new MailQueue(t.deps, createMailTransport({ smtpUrl: smtp?.url, outboxDir: "", idHost: "localhost" }), { from: "x <x@localhost>", appUrl: APP_URL });
    try {
      t.clock.advance(11 * 60_000); // past the retry and the claim's lease
      await restarted.drain();
      expect(smtp?.received).toHaveLength(1);
      const [one] = (await list(admin)).sends;
      expect(one).toMatchObject({ queued: 0, sent: 1, failed: 1, lastFailure: INTERRUPTED_REPLY });
    } finally {
      await restarted.stop();
    }
  });

  it("is read-only for observers and closed to voters and anonymous callers", async () => {
    const admin = await app(true);
    await roll(admin);
    const observer = await t.createObserver(admin);
    const voter = await t.login("2020/5570001", { dateOfBirth: 20020515 });
    expect((await t.request("/admin/notifications", { token: observer })).status).toBe(200);
    expect((await send(observer, { kind: "invitation" })).status).toBe(403);
    expect((await send(voter.token, { kind: "invitation" })).status).toBe(403);
    expect((await t.request("/admin/notifications", { method: "POST", json: { kind: "invitation" } })).status).toBe(401);
    expect((await send(admin, { kind: "everyone" })).status).toBe(400);
    expect((await send(admin, { kind: "invitation", groups: "300L" })).status).toBe(400);
    expect(Number((await t.database.client.execute("SELECT count(*) AS n FROM mail_sends")).rows[0].n)).toBe(0);
  });
});

describe("the embedded default (no SMTP_URL)", () => {
  it("writes each message as an .eml file to outbox/ beside the database and lists it", async () => {
    const admin = await app(false);
    await roll(admin);
    await t.openElection(admin);
    await send(admin, { kind: "invitation" });
    await t.deps.mail.drain();
    const { delivery, sends } = await list(admin);
    expect(sends[0]).toMatchObject({ sent: 2 });
    if (delivery.mode !== "outbox") throw new Error("expected the outbox");
    expect(delivery.dir).toBe(join(t.database.filePath ? join(t.database.filePath, "..") : "", "outbox"));
    expect(delivery.messages.map((m) => m.to).sort()).toEqual(["ada@uniport.edu.ng", "bola@uniport.edu.ng"]);
    const file = join(delivery.dir, delivery.messages[0].file);
    expect(existsSync(file)).toBe(true);
    const eml = textOf(readFileSync(file, "utf8"));
    expect(eml).toMatch(/^Subject: You are invited to vote: Department Elections$/m);
    expect(eml).toContain(`${APP_URL}/login`);
  });
});
