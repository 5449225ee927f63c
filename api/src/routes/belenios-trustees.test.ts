/**
 * A trustee's own sign-in (docs/verifiable.md): an observer account (a candidate's agent)
 * registers its own key and submits its own partial decryption, and no other trustee's; the
 * server trustee is an admin's choice. Through HTTP on a real database.
 */
import { afterEach, beforeEach, expect, it } from "vitest";
import {
  computePartialDecryption,
  decryptOutput,
  electionFingerprint,
  generateBallot,
  generateCredential,
  generateTrusteeKey,
  parseElection,
  parseEncryptedTally,
  parsePrivateKey,
  parseTrusteeKey,
  publicCredential,
  readArchive,
} from "@evoting/shared/belenios";
import { messages } from "@evoting/shared";
import { G, mulm } from "@evoting/shared/belenios";
import { createTestApp, type TestApp } from "../test/harness.ts";
import { verifiableMessages } from "../services/belenios/verifiable.ts";

let t: TestApp;
let admin: string;
beforeEach(async () => {
  t = await createTestApp({ ballotBatch: 1 });
  admin = await t.adminToken();
});
afterEach(async () => t.close());

const HOUR = 3_600_000;

async function recordCount(): Promise<number> {
  const r = await t.database.client.execute("SELECT count(*) AS n FROM belenios_records");
  return Number(r.rows[0].n);
}

it("an observer registers its own key and submits its own partial decryption, and no one else's", async () => {
  const agent = await t.createObserver(admin, "2020/5570901");
  const other = await t.createObserver(admin, "2020/5570902");
  const voter = await t.createVoter(admin);
  const now = t.clock.now();
  const created = await t.request("/admin/positions", {
    method: "POST",
    token: admin,
    json: { title: "President", startTime: new Date(now + 60_000).toISOString(), endTime: new Date(now + HOUR).toISOString(), verifiable: true },
  });
  const position = (await created.json()) as { _id: string; belenios: { uuid: string } };
  for (const name of ["Ada", "Bo"]) await t.createCandidate(admin, position._id, name);

  const addTrustee = (token: string, json: Record<string, unknown>) => t.request("/admin/trustees", { method: "POST", token, json });
  const officerKey = generateTrusteeKey();
  const agentKey = generateTrusteeKey();
  expect((await addTrustee(admin, { name: "Returning Officer", publicKey: officerKey.publicKey })).status).toBe(201);
  const serverByObserver = await addTrustee(agent, { name: "Server", server: true });
  expect(serverByObserver.status).toBe(403);
  expect((await serverByObserver.json()).message).toBe(verifiableMessages.serverTrusteeAdminOnly);
  const mine = await addTrustee(agent, { name: "Agent of Ada", publicKey: agentKey.publicKey });
  expect(mine.status).toBe(201);
  expect(await mine.json()).toMatchObject({ id: 2, name: "Agent of Ada", server: false, mine: true });
  const twice = await addTrustee(agent, { name: "Agent again", publicKey: generateTrusteeKey().publicKey });
  expect(twice.status).toBe(409);
  expect((await twice.json()).message).toBe(verifiableMessages.oneTrusteePerObserver);
  expect((await addTrustee(voter.token, { name: "Voter", publicKey: generateTrusteeKey().publicKey })).status).toBe(403);
  expect((await t.request("/admin/trustees", { method: "POST", json: { name: "Anon", publicKey: agentKey.publicKey } })).status).toBe(401);

  const listAs = async (token: string) =>
    ((await (await t.request("/admin/trustees", { token })).json()) as { id: number; name: string; mine: boolean; userId?: string }[]).map((x) => [
      x.id,
      x.name,
      x.mine,
      x.userId,
    ]);
  expect(await listAs(agent)).toEqual([
    [1, "Returning Officer", false, undefined],
    [2, "Agent of Ada", true, undefined],
  ]);
  expect(await listAs(admin)).toEqual([
    [1, "Returning Officer", true, undefined],
    [2, "Agent of Ada", false, undefined],
  ]);

  // Observers still write nothing else here: credentials and the lock are an admin's.
  const credential = generateCredential();
  const publicCredentials = [publicCredential(credential, position.belenios.uuid)];
  expect((await t.request(`/admin/positions/${position._id}/credentials`, { method: "PUT", token: agent, json: { publicCredentials } })).status).toBe(403);
  expect((await t.request(`/admin/positions/${position._id}/credentials`, { method: "PUT", token: admin, json: { publicCredentials } })).status).toBe(200);
  expect((await t.request(`/admin/positions/${position._id}/lock`, { method: "POST", token: agent })).status).toBe(403);
  expect((await t.request(`/admin/positions/${position._id}/lock`, { method: "POST", token: admin })).status).toBe(200);

  // One ballot, then the close and the tally.
  t.clock.advance(120_000);
  const archive = readArchive(new Uint8Array(await (await t.request(`/positions/${position._id}/archive.bel`)).arrayBuffer()));
  const electionJson = archive.find((m) => m.name.endsWith(".data.json") && m.content.startsWith('{"version":1'))!.content;
  const fingerprint = electionFingerprint(electionJson);
  const ballot = generateBallot(electionJson, parseElection(electionJson), fingerprint, credential, { selected: [0] });
  expect((await t.request("/vote", { method: "POST", token: voter.token, json: { positionId: position._id, ballot } })).status).toBe(201);
  t.clock.advance(HOUR + t.deps.config.voteGraceMs + 1000);
  const tallied = readArchive(new Uint8Array(await (await t.request(`/positions/${position._id}/archive.bel`)).arrayBuffer()));
  const tally = parseEncryptedTally(tallied.find((m) => m.content.startsWith('[[{"alpha"'))!.content);
  const pdOf = (key: { privateKey: string; publicKey: string }, id: number) =>
    decryptOutput(computePartialDecryption(fingerprint, parsePrivateKey(key.privateKey), parseTrusteeKey(key.publicKey).publicKey, tally), id);

  const submit = (token: string | undefined, trusteeId: number, partialDecryption: string) =>
    t.request(`/admin/positions/${position._id}/partial-decryptions`, { method: "POST", token, json: { trusteeId, partialDecryption } });
  const before = await recordCount();
  // The agent may not submit the returning officer's share, even a valid one; nor may another
  // observer, a voter or anyone signed out submit the agent's.
  const notMine = await submit(agent, 1, pdOf(officerKey, 1));
  expect(notMine.status).toBe(403);
  expect((await notMine.json()).message).toBe(verifiableMessages.notYourTrustee);
  expect((await submit(other, 2, pdOf(agentKey, 2))).status).toBe(403);
  const byVoter = await submit(voter.token, 2, pdOf(agentKey, 2));
  expect(byVoter.status).toBe(403);
  expect((await byVoter.json()).message).toBe(messages.adminOnly);
  expect((await submit(undefined, 2, pdOf(agentKey, 2))).status).toBe(401);
  expect(await recordCount()).toBe(before);

  // The agent's own, with its own sign-in; then the officer's, by an admin.
  expect(await (await submit(agent, 2, pdOf(agentKey, 2))).json()).toEqual({ remaining: 1 });
  expect(await (await submit(admin, 1, pdOf(officerKey, 1))).json()).toEqual({ remaining: 0 });
  const states = (await (await t.request("/admin/positions", { token: agent })).json()) as { belenios?: { state: string } }[];
  expect(states[0].belenios?.state).toBe("decrypted");
});

it("takes a whole roll's public credentials in one upload (above the 64 KB JSON limit)", async () => {
  const now = t.clock.now();
  const created = await t.request("/admin/positions", {
    method: "POST",
    token: admin,
    json: { title: "President", startTime: new Date(now + HOUR).toISOString(), endTime: new Date(now + 2 * HOUR).toISOString(), verifiable: true },
  });
  const { _id } = (await created.json()) as { _id: string };
  // 1,200 distinct group elements (g, g^2, ...): about 740 KB of JSON.
  const publicCredentials: string[] = [];
  let x = 1n;
  for (let i = 0; i < 1200; i++) publicCredentials.push((x = mulm(x, G)).toString());
  const res = await t.request(`/admin/positions/${_id}/credentials`, { method: "PUT", token: admin, json: { publicCredentials } });
  expect(res.status, await res.clone().text()).toBe(200);
  expect(await res.json()).toEqual({ count: 1200 });
  // Other admin writes keep the 64 KB limit.
  const big = await t.request(`/admin/positions/${_id}`, { method: "PATCH", token: admin, json: { title: "x".repeat(70_000) } });
  expect(big.status).toBe(413);
});
