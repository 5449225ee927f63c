/**
 * The election's life through HTTP: declaring (refused before the close and grace, on a failed
 * integrity check, and twice), the archive as published, every write to a declared election
 * refused, past elections for every signed-in user, and starting the next election (refused while
 * the current one has votes; positions copied, roll kept or replaced, chat and stations reset,
 * the old election's receipts still served).
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createHash } from "node:crypto";
import { messages, nominationMessages, PROVISIONAL_CSV_NOTE, type ElectionArchive, type ElectionSummary } from "@evoting/shared";
import { ADMIN, createTestApp, TINY_PNG, type TestApp } from "../../test/harness.ts";

const HOUR = 3_600_000;
const GRACE = 10 * 60_000;

let t: TestApp;
let admin: string;
beforeEach(async () => {
  // A batch of 1: each vote is in the tallies at its 201 (one test sets the default, 10).
  t = await createTestApp({ ballotBatch: 1 });
  admin = await t.adminToken();
});
afterEach(async () => t.close());

const post = (path: string, token: string, json?: unknown) => t.request(path, { method: "POST", token, ...(json === undefined ? {} : { json }) });
const declare = (token = admin) => post("/admin/election/declare", token);
const next = { title: "Union Elections 2027", subtitle: "Year two", startTime: "2026-03-03T08:00:00.000Z", endTime: "2026-03-03T16:00:00.000Z" };
const count = async (sql: string) => Number((await t.database.client.execute(sql)).rows[0].n);

/** An election with one position open now, two voters who voted, and its window closing within the hour. */
async function polledElection() {
  const settings = await (await t.request("/election", { token: admin })).json();
  const start = new Date(t.clock.now() - HOUR).toISOString();
  const end = new Date(t.clock.now() + HOUR).toISOString();
  expect((await t.request("/admin/election", { method: "PUT", token: admin, json: { ...settings, startTime: start, endTime: end } })).status).toBe(200);
  const { position, candidates } = await t.openElection(admin, ["Ada", "Grace"], "President");
  const ada = await t.createVoter(admin, "20010101");
  const bola = await t.createVoter(admin, "20020202");
  const receipts: string[] = [];
  for (const [voter, c] of [[ada, candidates[0]], [bola, candidates[1]]] as const) {
    const res = await post("/vote", voter.token, { positionId: position._id, candidateId: c._id });
    expect(res.status).toBe(201);
    receipts.push((await res.json()).receipt);
  }
  return { position, candidates, ada, bola, receipts: receipts.sort() };
}

const closeAndGrace = () => t.clock.advance(HOUR + GRACE + 1);

describe("declaring the results", () => {
  it("is refused with 409 before the close and its grace, and to voters and observers", async () => {
    await polledElection();
    const early = await declare();
    expect(early.status).toBe(409);
    expect((await early.json()).message).toMatch(/^Results can be declared once voting has closed/);
    t.clock.advance(HOUR + 1); // closed, but within the grace for offline votes
    expect((await declare()).status).toBe(409);
    const voter = await t.createVoter(admin, "20030303");
    expect((await declare(voter.token)).status).toBe(403);
    expect(await count("SELECT count(*) AS n FROM election_archives")).toBe(0);
    expect(await count("SELECT count(*) AS n FROM elections WHERE state = 'open'")).toBe(1);
  });

  it("freezes the results as published into the archive, audited, and refuses a second declaration", async () => {
    const { position, receipts } = await polledElection();
    closeAndGrace();
    // Provisional until the declaration: the results say so, and the export names no one elected.
    const before = await (await t.request("/vote/results", { token: admin })).json();
    expect(before.provisional).toBe(true);
    const provisionalCsv = await (await t.request("/admin/results.csv", { token: admin })).text();
    expect(provisionalCsv).toContain(",tie"); // one vote each
    expect(provisionalCsv).toContain(PROVISIONAL_CSV_NOTE);
    const res = await declare();
    expect(res.status).toBe(200);
    await expect.poll(async () => (await (await t.request("/vote/results", { token: admin })).json()).provisional, { timeout: 10_000, interval: 100 }).toBe(false);
    const body = await res.json();
    expect(body).toMatchObject({ message: messages.declareSuccess, election: { id: 1, state: "declared" } });

    const voter = await t.createVoter(admin, "20040404");
    const list = (await (await t.request("/elections", { token: voter.token })).json()) as ElectionSummary[];
    expect(list.map((e) => [e.id, e.title, e.state])).toEqual([[1, "Department Elections", "declared"]]);
    const archive = (await (await t.request("/elections/1", { token: voter.token })).json()) as ElectionArchive;
    // The results export answers the same bytes (polled: a slow recompute may serve a moment-stale snapshot).
    const exported = async () => (await t.request("/admin/results.csv", { token: admin })).text();
    await expect.poll(exported, { timeout: 10_000, interval: 100 }).toBe(archive.resultsCsv);
    const csv = await exported();
    expect(csv).toContain("President,Ada,");
    expect(csv).not.toContain(PROVISIONAL_CSV_NOTE);
    expect(archive.sheet.results.provisional).toBe(false);
    const sheet = await (await t.request("/admin/results/sheet", { token: admin })).json();
    expect(archive.resultsSha256).toBe(createHash("sha256").update(csv, "utf8").digest("hex"));
    expect(archive.sheet.csvSha256).toBe(sheet.csvSha256);
    // Counts as published (the live sheet's turnout bases move with the roll: a voter was added since).
    type Sheet = { results: { results: { breakdown: unknown[] }[] } };
    expect(archive.sheet.results.results.map((r) => r.breakdown)).toEqual((sheet as Sheet).results.results.map((r) => r.breakdown));
    expect(archive.receipts).toEqual([{ positionId: position._id, positionTitle: "President", total: 2, receipts }]);
    expect(archive.positions.map((p) => [p._id, p.candidates.map((c) => c.name)])).toEqual([[position._id, ["Ada", "Grace"]]]);
    expect(archive.settings).toMatchObject({ title: "Department Elections" });
    // The head archived is the chain's head just before the declaration's own entry.
    const entries = await (await t.request("/admin/audit?action=election.declare", { token: admin })).json();
    expect(entries.items).toHaveLength(1);
    expect(archive.audit.seq).toBe(entries.items[0].seq - 1);
    expect(archive.sheet.audit).toMatchObject({ headSeq: archive.audit.seq, head: archive.audit.hash });
    // The declaration's own entry comes after the head it archived.
    const audit = await (await t.request("/admin/audit?action=election.declare", { token: admin })).json();
    expect(audit.items).toHaveLength(1);
    expect(audit.items[0].summary).toContain(archive.resultsSha256);
    // The declaration's own check passed (the timer may record a check of the close after it).
    expect(await count("SELECT count(*) AS n FROM integrity_checks WHERE \"trigger\" = 'declaration' AND ok = 1")).toBe(1);

    const again = await declare();
    expect(again.status).toBe(409);
    expect((await again.json()).message).toBe(messages.electionAlreadyDeclared);
    expect((await t.request("/elections/2", { token: voter.token })).status).toBe(404);
    expect((await t.request("/elections/abc", { token: voter.token })).status).toBe(400);
  });

  it("two at once: one declares, the other waits for it and is told the election is declared, checking nothing", async () => {
    await polledElection();
    closeAndGrace();
    const [first, second] = await Promise.all([declare(), declare()]);
    expect([first.status, second.status].sort()).toEqual([200, 409]);
    expect((await (first.status === 409 ? first : second).json()).message).toBe(messages.electionAlreadyDeclared);
    expect(await count("SELECT count(*) AS n FROM election_archives")).toBe(1);
    // The second never reached the integrity check: it ran after the first had declared.
    expect(await count("SELECT count(*) AS n FROM integrity_checks WHERE \"trigger\" = 'declaration'")).toBe(1);
  });

  it("applies ballots still waiting for their batch before it archives the count", async () => {
    await t.close();
    t = await createTestApp({ ballotBatch: 10, config: { mixer: { immediate: false, intervalMs: 3_600_000 } } });
    admin = await t.adminToken();
    await polledElection();
    expect(await count("SELECT count(*) AS n FROM pending_ballots")).toBe(2);
    closeAndGrace();
    expect((await declare()).status).toBe(200);
    expect(await count("SELECT count(*) AS n FROM pending_ballots")).toBe(0);
    const archive = (await (await t.request("/elections/1", { token: admin })).json()) as ElectionArchive;
    expect(archive.sheet.results.results[0].totalVotes).toBe(2);
    expect(archive.receipts[0].total).toBe(2);
  });

  it("is refused, listing the problems, when the integrity check fails", async () => {
    const { candidates } = await polledElection();
    closeAndGrace();
    await t.database.client.execute({ sql: "UPDATE candidates SET vote_count = vote_count + 5 WHERE id = ?", args: [candidates[0]._id] });
    const res = await declare();
    expect(res.status).toBe(409);
    const body = await res.json();
    expect(body.message).toBe(messages.declareCheckFailed);
    expect(body.problems.length).toBeGreaterThan(0);
    expect(await count("SELECT count(*) AS n FROM election_archives")).toBe(0);
    expect(await count("SELECT count(*) AS n FROM elections WHERE state = 'declared'")).toBe(0);
  });

  it("a declared archive rewritten without the key (CSV, its SHA-256 and the record) is refused where it is read and named by the checks", async () => {
    const { candidates } = await polledElection();
    closeAndGrace();
    expect((await declare()).status).toBe(200);
    const archive = (await (await t.request("/elections/1", { token: admin })).json()) as ElectionArchive;
    // Someone with the database file and no key names the other winner, keeping every hash consistent.
    const csv = archive.resultsCsv.replaceAll("Ada", "Adx");
    const record = (await t.database.client.execute("SELECT record FROM election_archives")).rows[0].record as string;
    await t.database.client.execute({
      sql: "UPDATE election_archives SET results_csv = ?, results_sha256 = ?, record = ?",
      args: [Buffer.from(csv), createHash("sha256").update(csv).digest("hex"), record.replaceAll(candidates[0]._id, "forged")],
    });
    const read = await t.request("/elections/1", { token: admin });
    expect(read.status).toBe(409);
    expect((await read.json()).message).toBe(messages.archiveBroken);
    const check = (await (await post("/admin/integrity/check", admin)).json()) as { ok: boolean; problems: string[] };
    expect(check.ok).toBe(false);
    expect(check.problems).toContainEqual(expect.stringMatching(/^Election 1's archive .*seal/));
    const { runAudit } = await import("../../scripts/audit.ts");
    expect((await runAudit(t.database, t.deps.keys)).ok).toBe(false);
    // Without the key, the declaration's audit entry still names the published SHA-256.
    const keyless = await runAudit(t.database, null);
    expect(keyless.ok).toBe(false);
    expect(keyless.lines).toContainEqual(expect.stringMatching(/^Election 1's archive .*audit entry/));
  });

  it("leaves nothing about the declared election writable", async () => {
    const { position, candidates, ada } = await polledElection();
    closeAndGrace();
    expect((await declare()).status).toBe(200);
    const settings = await (await t.request("/election", { token: admin })).json();
    const form = new FormData();
    form.set("name", "Linus");
    form.set("positionId", position._id);
    const writes = {
      "create position": await post("/admin/positions", admin, { title: "Treasurer", startTime: settings.startTime, endTime: settings.endTime }),
      "edit position": await t.request(`/admin/positions/${position._id}`, { method: "PATCH", token: admin, json: { title: "Changed" } }),
      "delete position": await t.request(`/admin/positions/${position._id}`, { method: "DELETE", token: admin }),
      "add candidate": await t.request("/admin/candidates", { method: "POST", token: admin, body: form }),
      "delete candidate": await t.request(`/admin/candidates/${candidates[1]._id}`, { method: "DELETE", token: admin }),
      settings: await t.request("/admin/election", { method: "PUT", token: admin, json: { ...settings, title: "Changed" } }),
      station: await post("/admin/stations", admin, { name: "Library" }),
      vote: await post("/vote", (await t.createVoter(admin, "20050505")).token, { positionId: position._id, candidateId: candidates[0]._id }),
    };
    for (const [what, res] of Object.entries(writes)) expect(res.status, what).toBe(409);
    // Deleting a voter who voted in it would take their participation: refused as before.
    const voters = await (await t.request(`/admin/voters?q=${encodeURIComponent(ada.matricNumber)}`, { token: admin })).json();
    expect((await t.request(`/admin/voters/${voters.items[0]._id}`, { method: "DELETE", token: admin })).status).toBe(409);
    const archive = (await (await t.request("/elections/1", { token: admin })).json()) as ElectionArchive;
    expect(archive.positions[0].title).toBe("President");
  });
});

describe("starting a new election", () => {
  it("is refused while the current election has votes and is not declared", async () => {
    await polledElection();
    const res = await post("/admin/elections", admin, next);
    expect(res.status).toBe(409);
    expect((await res.json()).message).toBe(messages.newElectionHasVotes);
    expect(await count("SELECT count(*) AS n FROM elections")).toBe(1);
    const invalid = await post("/admin/elections", admin, { ...next, endTime: next.startTime });
    expect(invalid.status).toBe(400);
  });

  it("before any vote, ends the current one unlisted and starts the next", async () => {
    await t.openElection(admin, ["Ada"], "President");
    // The settings are now held in memory: the start must make this process forget them.
    expect((await (await t.request("/election", { token: admin })).json()).title).not.toBe(next.title);
    const res = await post("/admin/elections", admin, { ...next, copyPositions: false });
    expect(res.status).toBe(201);
    expect((await res.json()).election).toMatchObject({ id: 2, title: next.title, state: "open" });
    expect((await t.database.client.execute("SELECT id, state FROM elections ORDER BY id")).rows.map((r) => [r.id, r.state])).toEqual([
      [1, "ended"],
      [2, "open"],
    ]);
    expect(await (await t.request("/elections", { token: admin })).json()).toEqual([]);
    expect(await (await t.request("/admin/positions", { token: admin })).json()).toEqual([]);
    expect(await (await t.request("/election", { token: admin })).json()).toMatchObject({ title: next.title, subtitle: next.subtitle, startTime: next.startTime, endTime: next.endTime });
  });

  it("does not carry the last election's nomination window into the new one", async () => {
    const settings = await (await t.request("/election", { token: admin })).json();
    const open = {
      nominationsStart: new Date(t.clock.now() - HOUR).toISOString(),
      nominationsEnd: new Date(t.clock.now() + 48 * HOUR).toISOString(),
      startTime: new Date(t.clock.now() + 48 * HOUR).toISOString(),
      endTime: new Date(t.clock.now() + 56 * HOUR).toISOString(),
    };
    expect((await t.request("/admin/election", { method: "PUT", token: admin, json: { ...settings, ...open } })).status).toBe(200);
    await t.openElection(admin, ["Ada"], "President");
    expect((await post("/admin/elections", admin, { ...next, copyPositions: true })).status).toBe(201);
    expect(await (await t.request("/election", { token: admin })).json()).toMatchObject({ nominationsStart: null, nominationsEnd: null });
    // No one can apply to the new election's positions until the committee opens its own window.
    const [position] = await (await t.request("/admin/positions", { token: admin })).json();
    const voter = await t.createVoter(admin, "20050505");
    const form = new FormData();
    form.append("positionId", position._id);
    form.append("manifesto", "Lower dues.");
    form.append("photo", new Blob([TINY_PNG], { type: "image/png" }), "me.png");
    const applied = await t.request("/nominations", { method: "POST", token: voter.token, body: form });
    expect(applied.status).toBe(409);
    expect((await applied.json()).message).toBe(nominationMessages.nominationsClosed);
  });

  it("after the declaration: positions copied without candidates, roll kept, chat and stations reset, old receipts still checkable", async () => {
    const { position, ada, receipts } = await polledElection();
    expect((await post("/admin/stations", admin, { name: "Library" })).status).toBe(201);
    expect((await post("/chat/messages", ada.token, { text: "Good luck everyone" })).status).toBe(201);
    closeAndGrace();
    expect((await declare()).status).toBe(200);
    const archived = await (await t.request("/elections/1", { token: admin })).json();

    const res = await post("/admin/elections", admin, { ...next, copyPositions: true, keepRoll: true });
    expect(res.status).toBe(201);
    const positions = await (await t.request("/admin/positions", { token: admin })).json();
    expect(positions).toHaveLength(1);
    expect(positions[0]).toMatchObject({ title: "President", startTime: next.startTime, endTime: next.endTime, candidates: [] });
    expect(positions[0]._id).not.toBe(position._id);
    expect(await count("SELECT count(*) AS n FROM stations")).toBe(0);
    const chat = await (await t.request("/chat/messages", { token: ada.token })).json();
    expect(JSON.stringify(chat)).not.toContain("Good luck");
    const audit = await (await t.request("/admin/audit?action=election.start", { token: admin })).json();
    expect(audit.items[0].summary).toContain("1 position copied; the roll was kept");

    // The old election: its archive unchanged, its receipts still published, its position closed to writes.
    expect(await (await t.request("/elections/1", { token: admin })).json()).toEqual(archived);
    const old = await (await t.request(`/vote/receipts?positionId=${position._id}`, { token: ada.token })).json();
    expect(old.receipts).toEqual(receipts);
    expect((await t.request(`/admin/positions/${position._id}`, { method: "DELETE", token: admin })).status).toBe(409);

    // The same voter votes again in the new election, once.
    const c = await t.createCandidate(admin, positions[0]._id, "Linus");
    t.clock.set(Date.parse(next.startTime) + HOUR);
    admin = await t.adminToken(); // the clock moved past the old session's lifetime
    const { token } = await t.login(ada.matricNumber, { dateOfBirth: 20010101 });
    expect((await post("/vote", token, { positionId: positions[0]._id, candidateId: c._id })).status).toBe(201);
    expect((await post("/vote", token, { positionId: positions[0]._id, candidateId: c._id })).status).toBe(409);
    expect(await (await t.request("/vote/my-votes", { token })).json()).toHaveLength(1);
    // Results may be served a moment stale while a recompute is slow (a loaded machine).
    const results = async () => (await t.request("/vote/results", { token: admin })).json();
    await expect.poll(results, { timeout: 10_000, interval: 100 }).toMatchObject({ totalVotesCast: 1, results: [{ positionTitle: "President", totalVotes: 1 }] });
    // The integrity check still covers both elections' ballots.
    // (Retried: an on-demand check that meets the mixer's read on the one connection answers 500.)
    await expect.poll(async () => (await post("/admin/integrity/check", admin)).json(), { timeout: 10_000, interval: 200 }).toMatchObject({ ok: true });
  });

  it("a by-election for one position: copy, delete the others, vote, declare; each archive keeps its own positions", async () => {
    const { ada } = await polledElection();
    await t.openElection(admin, ["Linus"], "Treasurer");
    closeAndGrace();
    expect((await declare()).status).toBe(200);
    const byElection = { ...next, title: "President By-Election", subtitle: "" };
    expect((await post("/admin/elections", admin, { ...byElection, copyPositions: true })).status).toBe(201);
    const copied = (await (await t.request("/admin/positions", { token: admin })).json()) as { _id: string; title: string }[];
    expect(copied.map((p) => p.title)).toEqual(["President", "Treasurer"]);
    const treasurer = copied.find((p) => p.title === "Treasurer")!;
    expect((await t.request(`/admin/positions/${treasurer._id}`, { method: "DELETE", token: admin })).status).toBe(200);
    const [president] = copied;
    const c = await t.createCandidate(admin, president._id, "Linus");

    t.clock.set(Date.parse(next.startTime) + HOUR);
    admin = await t.adminToken();
    const { token } = await t.login(ada.matricNumber, { dateOfBirth: 20010101 });
    expect((await post("/vote", token, { positionId: president._id, candidateId: c._id })).status).toBe(201);
    t.clock.set(Date.parse(next.endTime) + GRACE + 1);
    admin = await t.adminToken();
    expect((await declare()).status).toBe(200);

    const list = (await (await t.request("/elections", { token: admin })).json()) as ElectionSummary[];
    expect(list.map((e) => [e.id, e.title])).toEqual([[2, "President By-Election"], [1, "Department Elections"]]);
    const titles = async (id: number) => ((await (await t.request(`/elections/${id}`, { token: admin })).json()) as ElectionArchive).sheet.results.results.map((r) => [r.positionTitle, r.totalVotes]);
    expect(await titles(2)).toEqual([["President", 1]]);
    expect(await titles(1)).toEqual([["President", 2], ["Treasurer", 0]]);
  });

  it("a by-election copies only the chosen position: positionIds, no deleting afterwards", async () => {
    const { position: president } = await polledElection();
    const { position: treasurer } = await t.openElection(admin, ["Linus"], "Treasurer");
    const groups = await t.request(`/admin/positions/${treasurer._id}`, { method: "PATCH", token: admin, json: { eligibleGroups: ["300L"], allowAbstain: true } });
    expect(groups.status).toBe(200);
    closeAndGrace();
    expect((await declare()).status).toBe(200);

    const res = await post("/admin/elections", admin, { ...next, title: "Treasurer By-Election", positionIds: [treasurer._id] });
    expect(res.status).toBe(201);
    const positions = await (await t.request("/admin/positions", { token: admin })).json();
    expect(positions).toHaveLength(1);
    expect(positions[0]).toMatchObject({ title: "Treasurer", eligibleGroups: ["300L"], allowAbstain: true, startTime: next.startTime, endTime: next.endTime, candidates: [] });
    expect([president._id, treasurer._id]).not.toContain(positions[0]._id);
    const audit = await (await t.request("/admin/audit?action=election.start", { token: admin })).json();
    expect(audit.items[0].summary).toContain("1 position copied");
    // The declared election keeps both of its positions.
    const archive = (await (await t.request("/elections/1", { token: admin })).json()) as ElectionArchive;
    expect(archive.positions.map((p) => p.title)).toEqual(["President", "Treasurer"]);
  });

  it("refuses positions to copy that are not the last election's with 400, writing nothing", async () => {
    const { position: first } = await polledElection();
    closeAndGrace();
    expect((await declare()).status).toBe(200);
    // Election 2, no votes yet: election 1's position is now another election's.
    expect((await post("/admin/elections", admin, { ...next, copyPositions: true })).status).toBe(201);
    const [current] = (await (await t.request("/admin/positions", { token: admin })).json()) as { _id: string }[];
    expect((await post("/admin/stations", admin, { name: "Library" })).status).toBe(201);
    const snapshot = async () => ({
      elections: (await t.database.client.execute("SELECT id, title, state FROM elections ORDER BY id")).rows.map((r) => [r.id, r.title, r.state]),
      positions: (await t.database.client.execute("SELECT id, election_id FROM positions ORDER BY id")).rows.map((r) => [r.id, r.election_id]),
      settings: await (await t.request("/election", { token: admin })).json(),
      stations: await count("SELECT count(*) AS n FROM stations"),
      audit: await count("SELECT count(*) AS n FROM audit_log WHERE action = 'election.start'"),
    });
    const before = await snapshot();

    const third = { ...next, title: "Union Elections 2028" };
    const refusals: [unknown, string][] = [
      [{ ...third, positionIds: ["no-such-position"] }, messages.copyPositionsUnknown(["no-such-position"])],
      [{ ...third, copyPositions: true, positionIds: [current._id, first._id] }, messages.copyPositionsUnknown([first._id])],
      [{ ...third, copyPositions: false, positionIds: [current._id] }, messages.copyPositionsOff],
      [{ ...third, positionIds: [] }, messages.copyPositionsNone],
      [{ ...third, positionIds: [current._id, current._id] }, messages.copyPositionsRepeated],
      [{ ...third, positionIds: current._id }, "positionIds must be a list of position ids"],
    ];
    for (const [body, message] of refusals) {
      const res = await post("/admin/elections", admin, body);
      expect([res.status, (await res.json()).message]).toEqual([400, message]);
    }
    expect(await snapshot()).toEqual(before);
    expect(before.elections).toEqual([[1, "Department Elections", "declared"], [2, next.title, "open"]]);
  });

  it("with keepRoll false, takes every voter off the roll until an import lists them again", async () => {
    const { ada } = await polledElection();
    const never = await t.createVoter(admin, "20060606");
    closeAndGrace();
    expect((await declare()).status).toBe(200);
    expect((await post("/admin/elections", admin, { ...next, keepRoll: false })).status).toBe(201);
    expect((await t.request("/auth/profile", { token: ada.token })).status).toBe(401);
    const page = await (await t.request("/admin/voters", { token: admin })).json();
    expect(page.total).toBe(0);
    expect(await count(`SELECT count(*) AS n FROM users WHERE matric_number = '${never.matricNumber}'`)).toBe(0);
    // Ada voted in election 1: her account stays for that participation, disabled.
    const refused = await t.request("/auth/login", { method: "POST", json: { matricNumber: ada.matricNumber, dateOfBirth: 20010101 } });
    expect(refused.status).toBe(403);
    const csv = `matricNumber,name,dateOfBirth\r\n${ada.matricNumber},Ada Again,20010101\r\n`;
    const imported = await t.request("/admin/voters/import?dryRun=0", { method: "POST", token: admin, body: csv, headers: { "content-type": "text/csv" } });
    expect(imported.status).toBe(200);
    expect((await t.login(ada.matricNumber, { dateOfBirth: 20010101 })).token).toBeTruthy();
    expect((await (await t.request("/admin/voters", { token: admin })).json()).total).toBe(1);
    expect((await t.request("/auth/login", { method: "POST", json: { matricNumber: ADMIN.matricNumber, password: ADMIN.password } })).status).toBe(200);
  });
});
