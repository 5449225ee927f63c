/**
 * Through HTTP on a real database: the nomination window, applying (photo, manifesto,
 * proposer and seconder), their answers, withdrawing, and the committee's screening, with
 * every refusal answered clearly and changing nothing.
 */
import { describe, expect, it } from "vitest";
import { SPEC_ELECTION, messages, nominationMessages as m, type MyNominations, type Nomination } from "@evoting/shared";
import { freshTestApps, TINY_PNG, type TestApp } from "../test/harness.ts";

const fresh = freshTestApps();

const H = 3_600_000;
/** The settings without the nomination window (and the harness's ballot batch): a PUT of these keeps them. */
const { nominationsStart: _s, nominationsEnd: _e, ballotBatch: _b, ...SPEC_BASE } = SPEC_ELECTION;
// Voting opens a day after the harness's clock: nominations close no later than that.
const BASE = { ...SPEC_BASE, startTime: "2026-03-03T09:00:00.000Z", endTime: "2026-03-03T15:00:00.000Z" };

async function voterIn(t: TestApp, admin: string, matricNumber: string, groups: string[]) {
  const res = await t.request("/admin/users", { method: "POST", token: admin, json: { name: `Voter ${matricNumber}`, matricNumber, dateOfBirth: 20020515, groups } });
  expect(res.status).toBe(201);
  return (await t.login(matricNumber, { dateOfBirth: 20020515 })).token;
}

async function setup() {
  const t = await fresh();
  const admin = await t.adminToken();
  const now = t.clock.now();
  // Voting opens tomorrow; nominations are open now.
  const president = await t.createPosition(admin, "President", new Date(now + 24 * H).toISOString(), new Date(now + 30 * H).toISOString());
  const window = { nominationsStart: new Date(now - H).toISOString(), nominationsEnd: new Date(now + 2 * H).toISOString() };
  const put = await t.request("/admin/election", { method: "PUT", token: admin, json: { ...BASE, ...window } });
  expect(put.status).toBe(200);
  const [ada, bola, chidi, dayo] = [await t.createVoter(admin), await t.createVoter(admin), await t.createVoter(admin), await t.createVoter(admin)];
  return { t, admin, president, window, ada, bola, chidi, dayo };
}

function application(t: TestApp, token: string, fields: Record<string, string>, photo: Blob | null = new Blob([TINY_PNG], { type: "image/png" })) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  if (photo) form.set("photo", photo, "me.png");
  return t.request("/nominations", { method: "POST", token, body: form });
}

const json = async <T,>(res: Response) => (await res.json()) as T;
const count = async (t: TestApp, sql: string) => Number((await t.database.client.execute(sql)).rows[0].n);

describe("the nomination window", () => {
  it("is set in Election Settings, checked, and kept by a PUT that omits it", async () => {
    const { t, admin, window } = await setup();
    expect(await json(await t.request("/election", { token: admin }))).toMatchObject(window);
    // Omitted: kept.
    const keep = await t.request("/admin/election", { method: "PUT", token: admin, json: { ...BASE, title: "SUG" } });
    expect(keep.status).toBe(200);
    expect(await keep.json()).toMatchObject({ title: "SUG", ...window });
    // Only one end sent: checked against the stored other.
    const before = await t.request("/admin/election", { method: "PUT", token: admin, json: { ...BASE, nominationsEnd: "2020-01-01T00:00:00.000Z" } });
    expect(before.status).toBe(400);
    expect((await json<{ message: string }>(before)).message).toBe(m.nominationWindowOrder);
    const one = await t.request("/admin/election", { method: "PUT", token: admin, json: { ...BASE, nominationsStart: null } });
    expect(one.status).toBe(400);
    expect((await json<{ message: string }>(one)).message).toBe(m.nominationWindowBoth);
    const bad = await t.request("/admin/election", { method: "PUT", token: admin, json: { ...BASE, nominationsStart: "soon", nominationsEnd: null } });
    expect(bad.status).toBe(400);
    expect(await json(await t.request("/election", { token: admin }))).toMatchObject({ title: "SUG", ...window });
    // Both null: cleared.
    const clear = await t.request("/admin/election", { method: "PUT", token: admin, json: { ...BASE, nominationsStart: null, nominationsEnd: null } });
    expect(await clear.json()).toMatchObject({ nominationsStart: null, nominationsEnd: null });
    const audit = await t.database.client.execute("SELECT summary FROM audit_log WHERE action = 'election.update' ORDER BY seq");
    expect(String(audit.rows.at(-1)!.summary)).toContain("nominationsStart:");
  });

  it("closes no later than voting starts: a later end is refused (400) and nothing changes; a stored one closes at the start", async () => {
    const { t, admin, window, ada } = await setup();
    const late = await t.request("/admin/election", { method: "PUT", token: admin, json: { ...BASE, nominationsEnd: "2026-03-03T10:00:00.000Z" } });
    expect(late.status).toBe(400);
    expect((await json<{ message: string }>(late)).message).toBe(m.nominationWindowAfterVoting);
    // Moving voting before the stored end is refused the same way.
    const early = await t.request("/admin/election", { method: "PUT", token: admin, json: { ...BASE, startTime: "2026-03-02T10:00:00.000Z" } });
    expect(early.status).toBe(400);
    expect((await json<{ message: string }>(early)).message).toBe(m.nominationWindowAfterVoting);
    expect(await json(await t.request("/election", { token: admin }))).toMatchObject({ startTime: BASE.startTime, ...window });
    const atStart = await t.request("/admin/election", { method: "PUT", token: admin, json: { ...BASE, nominationsEnd: BASE.startTime } });
    expect(atStart.status).toBe(200);
    // A window saved before this rule (written straight to the table) still closes when voting starts.
    await t.database.client.execute({ sql: "UPDATE election_settings SET nominations_end = ? WHERE id = 1", args: [Date.parse("2026-03-04T09:00:00.000Z")] });
    t.deps.electionSettings.invalidate();
    expect((await json<{ window: { end: string; open: boolean } }>(await t.request("/nominations", { token: ada.token }))).window).toMatchObject({ end: BASE.startTime, open: true });
    // Voting brought forward to now (as if written before the rule): nominations are closed.
    await t.database.client.execute({ sql: "UPDATE election_settings SET start_time = ? WHERE id = 1", args: [t.clock.now()] });
    t.deps.electionSettings.invalidate();
    expect((await json<{ window: { open: boolean } }>(await t.request("/nominations", { token: ada.token }))).window.open).toBe(false);
  });

    it("outside it, an application is 409 and nothing is stored", async () => {
    const { t, president, ada } = await setup();
    t.clock.advance(3 * H);
    const res = await application(t, ada.token, { positionId: president._id, manifesto: "Better labs" });
    expect(res.status).toBe(409);
    expect((await json<{ message: string }>(res)).message).toBe(m.nominationsClosed);
    expect(await count(t, "SELECT count(*) AS n FROM nominations")).toBe(0);
    expect(await count(t, "SELECT count(*) AS n FROM photos")).toBe(0);
    expect((await json<MyNominations>(await t.request("/nominations", { token: ada.token }))).window.open).toBe(false);
  });
});

describe("applying", () => {
  it("without supporters goes straight to screening; the applicant sees it", async () => {
    const { t, president, ada } = await setup();
    const mine = await json<MyNominations>(await t.request("/nominations", { token: ada.token }));
    expect(mine.window.open).toBe(true);
    expect(mine.positions).toEqual([{ _id: president._id, title: "President" }]);
    const res = await application(t, ada.token, { positionId: president._id, manifesto: "  Better labs  " });
    expect(res.status).toBe(201);
    const n = await json<Nomination & { message: string }>(res);
    expect(n).toMatchObject({ state: "submitted", manifesto: "Better labs", proposer: null, seconder: null, message: m.applySuccess });
    expect(n.photo).toMatch(/^\/api\/photos\//);
    expect((await t.request(n.photo!.replace("/api", ""))).status).toBe(200);
    const after = await json<MyNominations>(await t.request("/nominations", { token: ada.token }));
    expect(after.mine.map((x) => x._id)).toEqual([n._id]);
    const log = await t.database.client.execute("SELECT actor_matric, summary FROM audit_log WHERE action = 'nomination.apply'");
    expect(log.rows[0]).toMatchObject({ actor_matric: ada.matricNumber, summary: "Applied to stand for President" });
  });

  it("bad input is a clear 400 and stores nothing", async () => {
    const { t, president, ada, bola } = await setup();
    const png = new Blob([TINY_PNG], { type: "image/png" });
    const cases: [Record<string, string>, string, Blob | null][] = [
      [{ positionId: president._id, manifesto: "x" }, m.nominationPhotoRequired, null],
      [{ positionId: president._id, manifesto: " " }, m.nominationManifestoRequired, png],
      [{ positionId: president._id, manifesto: "x".repeat(2001) }, messages.manifestoTooLong, png],
      [{ manifesto: "x" }, m.nominationPositionRequired, png],
      [{ positionId: president._id, manifesto: "x", proposer: "nobody" }, messages.matricFormat, png],
      [{ positionId: president._id, manifesto: "x", proposer: "2020/5570999" }, `The proposer (2020/5570999) ${m.supporterNotOnRoll}`, png],
      [{ positionId: president._id, manifesto: "x", proposer: ada.matricNumber }, m.supporterIsApplicant, png],
      [{ positionId: president._id, manifesto: "x", proposer: bola.matricNumber, seconder: bola.matricNumber }, m.supportersSame, png],
      [{ positionId: president._id, manifesto: "x", seconder: "0000/5570000" }, `The seconder (0000/5570000) ${m.supporterNotOnRoll}`, png],
      [{ positionId: president._id, manifesto: "x" }, messages.photoInvalid, new Blob(["not an image"], { type: "image/png" })],
    ];
    for (const [fields, message, photo] of cases) {
      const res = await application(t, ada.token, fields, photo);
      expect(res.status, message).toBe(400);
      expect((await json<{ message: string }>(res)).message).toBe(message);
    }
    const json415 = await t.request("/nominations", { method: "POST", token: ada.token, json: { positionId: president._id, manifesto: "x" } });
    expect(json415.status).toBe(415);
    expect((await application(t, ada.token, { positionId: "missing", manifesto: "x" })).status).toBe(404);
    expect(await count(t, "SELECT count(*) AS n FROM nominations")).toBe(0);
    expect(await count(t, "SELECT count(*) AS n FROM photos")).toBe(0);
  });

  it("only for a position the voter may stand for: eligible groups, no referendum, ballot not published, once", async () => {
    const { t, admin, president, ada, bola } = await setup();
    const now = t.clock.now();
    const finalYear = await t.createPosition(admin, "Final Year Rep", new Date(now + 24 * H).toISOString(), new Date(now + 30 * H).toISOString());
    await t.request(`/admin/positions/${finalYear._id}`, { method: "PATCH", token: admin, json: { eligibleGroups: ["400L"] } });
    const referendum = await t.request("/admin/positions", {
      method: "POST",
      token: admin,
      json: { title: "Dues", startTime: new Date(now + 24 * H).toISOString(), endTime: new Date(now + 30 * H).toISOString(), method: "referendum", question: "Raise dues?" },
    });
    const referendumId = (await json<{ _id: string }>(referendum))._id;
    const senior = await voterIn(t, admin, "2019/5570400", ["400L"]);
    expect((await json<MyNominations>(await t.request("/nominations", { token: ada.token }))).positions.map((p) => p.title)).toEqual(["President"]);
    expect((await json<MyNominations>(await t.request("/nominations", { token: senior }))).positions.map((p) => p.title).sort()).toEqual(["Final Year Rep", "President"]);

    const notEligible = await application(t, ada.token, { positionId: finalYear._id, manifesto: "x" });
    expect(notEligible.status).toBe(403);
    expect((await json<{ message: string }>(notEligible)).message).toBe(m.nominationNotEligible);
    expect((await application(t, senior, { positionId: finalYear._id, manifesto: "x" })).status).toBe(201);
    const ref = await application(t, ada.token, { positionId: referendumId, manifesto: "x" });
    expect(ref.status).toBe(400);
    expect((await json<{ message: string }>(ref)).message).toBe(m.nominationReferendum);

    expect((await application(t, ada.token, { positionId: president._id, manifesto: "x" })).status).toBe(201);
    const again = await application(t, ada.token, { positionId: president._id, manifesto: "y" });
    expect(again.status).toBe(409);
    expect((await json<{ message: string }>(again)).message).toBe(m.nominationDuplicate);

    // A published ballot (a vote) takes no more applications.
    const open = await t.openElection(admin, ["Grace"], "Treasurer");
    expect((await t.request("/vote", { method: "POST", token: bola.token, json: { positionId: open.position._id, candidateId: open.candidates[0]._id } })).status).toBe(201);
    const late = await application(t, ada.token, { positionId: open.position._id, manifesto: "x" });
    expect(late.status).toBe(409);
    expect((await json<{ message: string }>(late)).message).toBe(m.nominationBallotPublished);
    expect(await count(t, "SELECT count(*) AS n FROM nominations")).toBe(2);
    expect(await count(t, "SELECT count(*) AS n FROM photos")).toBe(2);
  });

  it("a voter taken off the roll cannot be named proposer or seconder", async () => {
    const { t, president, ada, bola } = await setup();
    // Taken off the roll as a new election with a replaced roll leaves a voter who voted before: disabled.
    await t.database.client.execute({ sql: "UPDATE users SET disabled_at = ? WHERE matric_number = ?", args: [t.clock.now(), bola.matricNumber] });
    for (const role of ["proposer", "seconder"]) {
      const res = await application(t, ada.token, { positionId: president._id, manifesto: "x", [role]: bola.matricNumber });
      expect(res.status).toBe(400);
      expect((await json<{ message: string }>(res)).message).toBe(`The ${role} (${bola.matricNumber}) ${m.supporterNotOnRoll}`);
    }
    expect(await count(t, "SELECT count(*) AS n FROM nominations")).toBe(0);
  });

  it("checks every rule before it processes the photo, and bounds the photo's pixels", async () => {
    const { t, president, ada, bola } = await setup();
    const notAnImage = new Blob(["not an image"], { type: "image/png" });
    // A second application, and one for a position that does not exist: refused for that, not for the photo.
    expect((await application(t, ada.token, { positionId: president._id, manifesto: "x" })).status).toBe(201);
    const dup = await application(t, ada.token, { positionId: president._id, manifesto: "y" }, notAnImage);
    expect(dup.status).toBe(409);
    expect((await json<{ message: string }>(dup)).message).toBe(m.nominationDuplicate);
    const missing = await application(t, bola.token, { positionId: "nope", manifesto: "y" }, notAnImage);
    expect(missing.status).toBe(404);
    // 3000 x 3000 (9 million pixels, a small file): more than an applicant's photo may have.
    const sharp = (await import("sharp")).default;
    const big = await sharp({ create: { width: 3000, height: 3000, channels: 3, background: "#8899aa" } }).png().toBuffer();
    const tooBig = await application(t, bola.token, { positionId: president._id, manifesto: "y" }, new Blob([big], { type: "image/png" }));
    expect(tooBig.status).toBe(400);
    // Outside the window, a photo is never looked at.
    t.clock.advance(3 * H);
    const closed = await application(t, bola.token, { positionId: president._id, manifesto: "y" }, notAnImage);
    expect(closed.status).toBe(409);
    expect((await json<{ message: string }>(closed)).message).toBe(m.nominationsClosed);
    expect(await count(t, "SELECT count(*) AS n FROM nominations")).toBe(1);
  });

  it("staff cannot stand, and /nominations needs a sign-in", async () => {
    const { t, admin, president } = await setup();
    expect((await t.request("/nominations")).status).toBe(401);
    expect((await t.request("/nominations", { token: admin })).status).toBe(403);
    const res = await application(t, admin, { positionId: president._id, manifesto: "x" });
    expect(res.status).toBe(403);
    expect((await json<{ message: string }>(res)).message).toBe(m.nominationVotersOnly);
  });
});

describe("proposer and seconder", () => {
  it("each confirms from their own sign-in; the last confirmation submits it", async () => {
    const { t, president, ada, bola, chidi, dayo } = await setup();
    const res = await application(t, ada.token, { positionId: president._id, manifesto: "x", proposer: bola.matricNumber, seconder: chidi.matricNumber });
    const n = await json<Nomination>(res);
    expect(n).toMatchObject({ state: "awaiting", proposer: { matricNumber: bola.matricNumber, answer: "pending" }, seconder: { matricNumber: chidi.matricNumber, answer: "pending" } });

    const asked = await json<MyNominations>(await t.request("/nominations", { token: bola.token }));
    expect(asked.requests).toEqual([{ _id: n._id, role: "proposer", applicant: n.applicant, positionTitle: "President" }]);
    expect((await json<MyNominations>(await t.request("/nominations", { token: chidi.token }))).requests[0].role).toBe("seconder");
    expect((await json<MyNominations>(await t.request("/nominations", { token: dayo.token }))).requests).toEqual([]);

    // Someone not named, and the applicant, cannot answer for them.
    expect((await t.request(`/nominations/${n._id}/confirm`, { method: "POST", token: dayo.token })).status).toBe(403);
    expect((await t.request(`/nominations/${n._id}/confirm`, { method: "POST", token: ada.token })).status).toBe(403);
    expect((await t.request("/nominations/missing/confirm", { method: "POST", token: bola.token })).status).toBe(404);

    const first = await t.request(`/nominations/${n._id}/confirm`, { method: "POST", token: bola.token });
    expect(first.status).toBe(200);
    expect(await first.json()).toMatchObject({ state: "awaiting", proposer: { answer: "confirmed" }, seconder: { answer: "pending" }, message: m.confirmSuccess });
    const twice = await t.request(`/nominations/${n._id}/decline`, { method: "POST", token: bola.token });
    expect(twice.status).toBe(409);
    expect((await json<{ message: string }>(twice)).message).toBe(m.nominationAlreadyAnswered);
    const second = await t.request(`/nominations/${n._id}/confirm`, { method: "POST", token: chidi.token });
    expect(await second.json()).toMatchObject({ state: "submitted", seconder: { answer: "confirmed" } });
    expect((await json<MyNominations>(await t.request("/nominations", { token: chidi.token }))).requests).toEqual([]);
    const log = await t.database.client.execute("SELECT action, actor_matric FROM audit_log WHERE action LIKE 'nomination.%' ORDER BY seq");
    expect(log.rows.map((r) => [r.action, r.actor_matric])).toEqual([
      ["nomination.apply", ada.matricNumber],
      ["nomination.confirm", bola.matricNumber],
      ["nomination.confirm", chidi.matricNumber],
    ]);
  });

  it("a decline keeps it awaiting: it cannot be approved, but it can be rejected", async () => {
    const { t, admin, president, ada, bola } = await setup();
    const n = await json<Nomination>(await application(t, ada.token, { positionId: president._id, manifesto: "x", proposer: bola.matricNumber }));
    const declined = await t.request(`/nominations/${n._id}/decline`, { method: "POST", token: bola.token });
    expect(await declined.json()).toMatchObject({ state: "awaiting", proposer: { answer: "declined" }, message: m.declineSuccess });
    const approve = await t.request(`/admin/nominations/${n._id}/approve`, { method: "POST", token: admin });
    expect(approve.status).toBe(409);
    expect((await json<{ message: string }>(approve)).message).toBe(`${m.nominationNotSubmitted} awaiting`);
    expect(await count(t, "SELECT count(*) AS n FROM candidates")).toBe(0);
    const reject = await t.request(`/admin/nominations/${n._id}/reject`, { method: "POST", token: admin, json: { reason: "Proposer declined" } });
    expect(await reject.json()).toMatchObject({ state: "rejected", reason: "Proposer declined" });
  });
});

describe("screening", () => {
  it("approving makes the applicant a candidate: name from the roll, the photo and the manifesto", async () => {
    const { t, admin, president, ada } = await setup();
    const n = await json<Nomination>(await application(t, ada.token, { positionId: president._id, manifesto: "Better labs" }));
    const res = await t.request(`/admin/nominations/${n._id}/approve`, { method: "POST", token: admin });
    expect(res.status).toBe(200);
    const approved = await json<Nomination & { message: string }>(res);
    expect(approved).toMatchObject({ state: "approved", message: m.approveSuccess });
    const candidates = await json<{ _id: string; name: string; photo: string; manifesto: string; positionId: string }[]>(await t.request("/admin/candidates", { token: admin }));
    expect(candidates).toEqual([expect.objectContaining({ _id: approved.candidateId, name: n.applicant.name, photo: n.photo, manifesto: "Better labs", positionId: president._id })]);
    const ballot = await json<{ _id: string; candidates: { name: string }[] }[]>(await t.request("/vote/positions", { token: ada.token }));
    expect(ballot.find((p) => p._id === president._id)!.candidates.map((c) => c.name)).toEqual([n.applicant.name]);
    // Decided once.
    const again = await t.request(`/admin/nominations/${n._id}/approve`, { method: "POST", token: admin });
    expect(again.status).toBe(409);
    expect((await t.request(`/admin/nominations/${n._id}/reject`, { method: "POST", token: admin, json: { reason: "late" } })).status).toBe(409);
    const log = await t.database.client.execute("SELECT summary FROM audit_log WHERE action = 'nomination.approve'");
    expect(String(log.rows[0].summary)).toContain(`Approved ${n.applicant.name}`);
  });

  it("approval is refused once the position has a vote, or when the applicant already stands there", async () => {
    const { t, admin, ada, bola, chidi } = await setup();
    const open = await t.openElection(admin, ["Grace"], "Treasurer");
    const n = await json<Nomination>(await application(t, ada.token, { positionId: open.position._id, manifesto: "x" }));
    const dup = await t.createCandidate(admin, open.position._id, "Voter 2"); // bola's name on the roll
    const nb = await json<Nomination>(await application(t, bola.token, { positionId: open.position._id, manifesto: "x" }));
    const already = await t.request(`/admin/nominations/${nb._id}/approve`, { method: "POST", token: admin });
    expect(already.status).toBe(409);
    expect((await json<{ message: string }>(already)).message).toBe(m.nominationAlreadyCandidate);
    expect(dup.name).toBe("Voter 2");

    expect((await t.request("/vote", { method: "POST", token: chidi.token, json: { positionId: open.position._id, candidateId: open.candidates[0]._id } })).status).toBe(201);
    const frozen = await t.request(`/admin/nominations/${n._id}/approve`, { method: "POST", token: admin });
    expect(frozen.status).toBe(409);
    expect((await json<{ message: string }>(frozen)).message).toBe(messages.ballotFrozen);
    const listed = await json<Nomination[]>(await t.request("/admin/nominations?state=submitted", { token: admin }));
    expect(listed.map((x) => x._id).sort()).toEqual([n._id, nb._id].sort());
    expect(await count(t, `SELECT count(*) AS n FROM candidates WHERE position_id = '${open.position._id}'`)).toBe(2);
  });

  it("rejecting needs a reason, which the applicant reads", async () => {
    const { t, admin, president, ada } = await setup();
    const n = await json<Nomination>(await application(t, ada.token, { positionId: president._id, manifesto: "x" }));
    for (const body of [{}, { reason: "   " }, { reason: "x".repeat(501) }]) {
      expect((await t.request(`/admin/nominations/${n._id}/reject`, { method: "POST", token: admin, json: body })).status).toBe(400);
    }
    expect((await t.request("/admin/nominations/missing/reject", { method: "POST", token: admin, json: { reason: "No" } })).status).toBe(404);
    const res = await t.request(`/admin/nominations/${n._id}/reject`, { method: "POST", token: admin, json: { reason: "Outstanding dues" } });
    expect(await res.json()).toMatchObject({ state: "rejected", reason: "Outstanding dues", message: m.rejectSuccess });
    const mine = await json<MyNominations>(await t.request("/nominations", { token: ada.token }));
    expect(mine.mine[0]).toMatchObject({ state: "rejected", reason: "Outstanding dues" });
    // A rejected applicant may apply again in the window.
    expect((await application(t, ada.token, { positionId: president._id, manifesto: "y" })).status).toBe(201);
    const log = await t.database.client.execute("SELECT summary FROM audit_log WHERE action = 'nomination.reject'");
    expect(String(log.rows[0].summary)).toContain("Outstanding dues");
  });

  it("lists with filters; observers read but cannot decide", async () => {
    const { t, admin, president, ada, bola } = await setup();
    const a = await json<Nomination>(await application(t, ada.token, { positionId: president._id, manifesto: "x" }));
    await application(t, bola.token, { positionId: president._id, manifesto: "y", proposer: ada.matricNumber });
    const all = await json<Nomination[]>(await t.request("/admin/nominations", { token: admin }));
    expect(all.map((n) => n.state).sort()).toEqual(["awaiting", "submitted"]);
    expect((await json<Nomination[]>(await t.request("/admin/nominations?state=submitted", { token: admin }))).map((n) => n._id)).toEqual([a._id]);
    expect(await json(await t.request(`/admin/nominations?positionId=other`, { token: admin }))).toEqual([]);
    expect((await t.request("/admin/nominations?state=maybe", { token: admin })).status).toBe(400);

    await t.request("/admin/users", { method: "POST", token: admin, json: { name: "Watcher", matricNumber: "2019/5570998", role: "observer", password: "observer-pass-1" } });
    const observer = (await t.login("2019/5570998", { password: "observer-pass-1" })).token;
    expect((await t.request("/admin/nominations", { token: observer })).status).toBe(200);
    expect((await t.request(`/admin/nominations/${a._id}/approve`, { method: "POST", token: observer })).status).toBe(403);
    expect((await t.request(`/admin/nominations/${a._id}/reject`, { method: "POST", token: observer, json: { reason: "no" } })).status).toBe(403);
    expect((await t.request("/admin/nominations", { token: ada.token })).status).toBe(403);
    expect(await count(t, "SELECT count(*) AS n FROM nominations WHERE state = 'submitted'")).toBe(1);
  });
});

describe("withdrawing", () => {
  it("the applicant withdraws before the ballot is published; an approved one leaves the ballot", async () => {
    const { t, admin, president, ada, bola } = await setup();
    const n = await json<Nomination>(await application(t, ada.token, { positionId: president._id, manifesto: "x" }));
    expect((await t.request(`/nominations/${n._id}/withdraw`, { method: "POST", token: bola.token })).status).toBe(404);
    await t.request(`/admin/nominations/${n._id}/approve`, { method: "POST", token: admin });
    expect(await count(t, "SELECT count(*) AS n FROM candidates")).toBe(1);
    const res = await t.request(`/nominations/${n._id}/withdraw`, { method: "POST", token: ada.token });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ state: "withdrawn", candidateId: null, message: m.withdrawSuccess });
    expect(await count(t, "SELECT count(*) AS n FROM candidates")).toBe(0);
    const again = await t.request(`/nominations/${n._id}/withdraw`, { method: "POST", token: ada.token });
    expect(again.status).toBe(409);
    expect((await json<{ message: string }>(again)).message).toBe(m.nominationCannotWithdraw);
    const log = await t.database.client.execute("SELECT summary FROM audit_log WHERE action = 'nomination.withdraw'");
    expect(String(log.rows[0].summary)).toBe("Withdrew the application for President, leaving the ballot");
  });

  it("is refused once the position has a vote, and the candidate stays", async () => {
    const { t, admin, ada, bola } = await setup();
    const open = await t.openElection(admin, [], "Treasurer");
    const n = await json<Nomination>(await application(t, ada.token, { positionId: open.position._id, manifesto: "x" }));
    const approved = await json<Nomination>(await t.request(`/admin/nominations/${n._id}/approve`, { method: "POST", token: admin }));
    expect((await t.request("/vote", { method: "POST", token: bola.token, json: { positionId: open.position._id, candidateId: approved.candidateId } })).status).toBe(201);
    const res = await t.request(`/nominations/${n._id}/withdraw`, { method: "POST", token: ada.token });
    expect(res.status).toBe(409);
    expect((await json<{ message: string }>(res)).message).toBe(m.nominationBallotPublished);
    expect(await count(t, "SELECT count(*) AS n FROM candidates")).toBe(1);
    expect(await count(t, "SELECT count(*) AS n FROM nominations WHERE state = 'approved'")).toBe(1);
  });
});

describe("applying again", () => {
  it("a withdrawn or rejected application keeps no photo, and a voter applies for one position at most three times", async () => {
    const { t, admin, president, ada } = await setup();
    const first = await json<Nomination>(await application(t, ada.token, { positionId: president._id, manifesto: "x" }));
    expect((await t.request(`/nominations/${first._id}/withdraw`, { method: "POST", token: ada.token })).status).toBe(200);
    expect(await count(t, "SELECT count(*) AS n FROM photos")).toBe(0);
    const second = await json<Nomination>(await application(t, ada.token, { positionId: president._id, manifesto: "x" }));
    expect((await t.request(`/admin/nominations/${second._id}/reject`, { method: "POST", token: admin, json: { reason: "No" } })).status).toBe(200);
    expect(await count(t, "SELECT count(*) AS n FROM photos")).toBe(0);
    const third = await json<Nomination>(await application(t, ada.token, { positionId: president._id, manifesto: "x" }));
    expect(await count(t, "SELECT count(*) AS n FROM photos")).toBe(1);
    expect((await t.request(`/nominations/${third._id}/withdraw`, { method: "POST", token: ada.token })).status).toBe(200);
    const fourth = await application(t, ada.token, { positionId: president._id, manifesto: "x" });
    expect(fourth.status).toBe(409);
    expect((await json<{ message: string }>(fourth)).message).toBe(m.nominationTooMany(3));
    expect(await count(t, "SELECT count(*) AS n FROM photos")).toBe(0);
  });
});

describe("across elections", () => {
  it("a nomination belongs to its position's election: the next election lists none of the last one's, and they no longer change", async () => {
    const { t, admin, president, window, ada } = await setup();
    const applied = await application(t, ada.token, { positionId: president._id, manifesto: "Last year's plan" });
    expect(applied.status).toBe(201);
    const old = await json<{ _id: string }>(applied);

    const next = { title: "Union Elections 2027", subtitle: "Year two", startTime: "2026-03-04T08:00:00.000Z", endTime: "2026-03-04T16:00:00.000Z" };
    const started = await t.request("/admin/elections", { method: "POST", token: admin, json: { ...next, copyPositions: true, keepRoll: true } });
    expect(started.status).toBe(201);
    const reopened = await t.request("/admin/election", { method: "PUT", token: admin, json: { ...BASE, ...next, ...window } });
    expect(reopened.status).toBe(200);

    expect(await json(await t.request("/admin/nominations", { token: admin }))).toEqual([]);
    const mine = await json<{ mine: unknown[]; positions: { _id: string; title: string }[] }>(await t.request("/nominations", { token: ada.token }));
    expect(mine.mine).toEqual([]);
    expect(mine.positions.map((p) => p.title)).toEqual(["President"]);
    expect(mine.positions[0]._id).not.toBe(president._id);

    const refusals = [
      await t.request(`/admin/nominations/${old._id}/approve`, { method: "POST", token: admin }),
      await t.request(`/admin/nominations/${old._id}/reject`, { method: "POST", token: admin, json: { reason: "Too late" } }),
      await t.request(`/nominations/${old._id}/withdraw`, { method: "POST", token: ada.token }),
      await application(t, ada.token, { positionId: president._id, manifesto: "Again" }),
    ];
    for (const res of refusals) {
      expect(res.status).toBe(409);
      expect((await json<{ message: string }>(res)).message).toBe(messages.electionDeclared);
    }
    expect(await count(t, "SELECT count(*) AS n FROM nominations")).toBe(1);
    expect(await count(t, "SELECT count(*) AS n FROM nominations WHERE state = 'submitted'")).toBe(1);
    expect(await count(t, "SELECT count(*) AS n FROM candidates")).toBe(0);
  });
});
