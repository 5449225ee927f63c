import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { tool, toolVerifies } from "./belenios-tool.test-support.ts";
import {
  bigintModPow,
  G,
  invm,
  isGroupElement,
  mulm,
  P,
  powm,
  precomputeBase,
  Q,
  randomZq,
  ballotTracker,
  buildArchive,
  checkArchiveChain,
  combineKeys,
  computePartialDecryption,
  computeResult,
  decryptOutput,
  electionFingerprint,
  encryptedTally,
  eventRecords,
  generateBallot,
  generateCredential,
  generateTrusteeKey,
  generateUuid,
  normalizeCredential,
  parseBallot,
  parseElection,
  parseEncryptedTally,
  parsePartialDecryption,
  parsePrivateKey,
  parseTrusteeKey,
  publicCredential,
  serializeElection,
  serializeEncryptedTally,
  serializePartialDecryption,
  serializeResult,
  serializeTrustees,
  setupPayloads,
  sha256Hex,
  verifyBallot,
  verifyPartialDecryption,
  verifyTrusteeKey,
  type ArchiveRecord,
  type Choice,
} from "./index.ts";

const dirs: string[] = [];
function scratch(): string {
  const dir = mkdtempSync(join(tmpdir(), "belenios-"));
  dirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function toolCredentials(dir: string, uuid: string, count: number): { priv: string[]; pub: string[] } {
  tool(dir, ["setup", "generate-credentials", "--uuid", uuid, "--group", "BELENIOS-2048", "--count", String(count)]);
  const files = readdirSync(dir);
  const privFile = files.find((f) => f.endsWith(".privcreds"))!;
  const pubFile = files.find((f) => f.endsWith(".pubcreds"))!;
  const priv = readFileSync(join(dir, privFile), "utf8").trim().split("\n").map((l) => l.split(" ")[1]);
  const pubWithIds = JSON.parse(readFileSync(join(dir, pubFile), "utf8")) as string[];
  rmSync(join(dir, privFile));
  rmSync(join(dir, pubFile));
  // Lines are "credential,,id": put them back in the order of the private ones.
  const pub = priv.map((_, i) => pubWithIds.find((p) => p.endsWith(`,,${i + 1}`))!.split(",")[0]);
  return { priv, pub };
}

function toolTrusteeKey(): { pub: string; priv: string } {
  const sub = scratch();
  tool(sub, ["setup", "generate-trustee-key", "--group", "BELENIOS-2048"]);
  const files = readdirSync(sub);
  return {
    pub: readFileSync(join(sub, files.find((f) => f.endsWith(".pubkey"))!), "utf8").trim(),
    priv: readFileSync(join(sub, files.find((f) => f.endsWith(".privkey"))!), "utf8").trim(),
  };
}

describe("the group's arithmetic", () => {
  it("inverts by Euclid as Fermat does, and tests membership as x^q = 1", () => {
    for (const x of [2n, G, P - 2n, powm(G, randomZq())]) {
      expect(invm(x)).toBe(bigintModPow(x, P - 2n));
      expect(mulm(invm(x), x)).toBe(1n);
    }
    expect(() => invm(P)).toThrow();
    const member = powm(G, randomZq());
    expect([1n, G, member].map(isGroupElement)).toEqual([true, true, true]);
    // P - 1 has order 2, P - g has order 2q, 2 is not a q-th power here, 0 and P are out of range.
    const outside = [0n, P, P - 1n, P - G, P - member, 2n];
    expect(outside.map((x) => bigintModPow(x, Q) === 1n && x > 0n && x < P)).toEqual(outside.map(() => false));
    expect(outside.map(isGroupElement)).toEqual(outside.map(() => false));
  });

  it("gives with a fixed-base table exactly the powers it gives without", () => {
    const base = powm(G, randomZq());
    const exponents = [0n, 1n, 255n, 256n, 65535n, Q - 1n, (1n << 256n) - 1n, 1n << 256n, randomZq(), randomZq()];
    const plain = exponents.map((e) => bigintModPow(base, e));
    precomputeBase(base);
    expect(exponents.map((e) => powm(base, e))).toEqual(plain);
  });
});

describe("credentials", () => {
  it("derives the public credentials belenios-tool derives, for its credentials and for ours", () => {
    const dir = scratch();
    const uuid = tool(dir, ["setup", "generate-token"]).trim();
    const { priv, pub } = toolCredentials(dir, uuid, 2);
    expect(priv.map((c) => publicCredential(c, uuid))).toEqual(pub);
    const ours = generateCredential();
    expect(normalizeCredential(ours)).toBe(ours);
    expect(normalizeCredential(ours.replace(/-/g, ""))).toBe(ours);
    const other = generateUuid();
    const derived = tool(dir, ["setup", "generate-credentials", `--derive=${ours}`, "--uuid", other, "--group", "BELENIOS-2048"]).trim();
    expect(publicCredential(ours, other)).toBe(derived);
  });

  it("refuses a mistyped credential", () => {
    const c = generateCredential();
    const wrong = (c[0] === "2" ? "3" : "2") + c.slice(1);
    expect(normalizeCredential(wrong)).toBeNull();
    expect(normalizeCredential("abc")).toBeNull();
  });
});

describe("trustee keys", () => {
  it("accepts the tool's keys and refuses a tampered one", () => {
    const { pub } = toolTrusteeKey();
    const key = parseTrusteeKey(pub);
    expect(verifyTrusteeKey(key)).toBe(true);
    expect(verifyTrusteeKey({ ...key, publicKey: key.publicKey * 2n })).toBe(false);
    expect(verifyTrusteeKey({ ...key, pok: { ...key.pok, response: key.pok.response ^ 1n } })).toBe(false);
  });

  it("makes keys whose proofs verify", () => {
    const k = generateTrusteeKey();
    expect(verifyTrusteeKey(parseTrusteeKey(k.publicKey))).toBe(true);
    expect(parsePrivateKey(k.privateKey)).toBeTypeOf("bigint");
  });
});

const TEMPLATES = [
  { name: "several seats with blank", question: { answers: ["Ada", "Bo", "Cy"], blank: true, min: 1, max: 2, question: "Committee" } },
  { name: "single choice", question: { answers: ["Ada", "Bo", "Cy"], blank: false, min: 1, max: 1, question: "President" } },
];

describe.each(TEMPLATES)("a whole election both ways ($name)", ({ question }) => {
  it("runs with the tool's and our keys, ballots and partial decryptions, and the tool verifies it", () => {
    const dir = scratch();
    const uuid = tool(dir, ["setup", "generate-token"]).trim();
    const { priv, pub } = toolCredentials(dir, uuid, 4);
    writeFileSync(join(dir, "public_creds.json"), JSON.stringify(pub));
    const toolKey = toolTrusteeKey();
    const ourKey = generateTrusteeKey();
    writeFileSync(join(dir, "public_keys.jsons"), `${toolKey.pub}\n${ourKey.publicKey}\n`);
    tool(dir, ["setup", "make-trustees"]);
    writeFileSync(join(dir, "q.json"), JSON.stringify({ description: "d", name: "n", questions: [{ ...question, blank: question.blank || undefined }] }));
    tool(dir, ["setup", "make-election", "--uuid", uuid, "--group", "BELENIOS-2048", "--template", "q.json"]);
    const electionJson = readFileSync(join(dir, "election.json"), "utf8").trim();
    const election = parseElection(electionJson);
    expect(election.publicKey).toBe(combineKeys([parseTrusteeKey(toolKey.pub), parseTrusteeKey(ourKey.publicKey)]));
    expect(serializeElection(election)).toBe(electionJson);
    tool(dir, ["archive", "init"]);
    for (const f of ["election.json", "trustees.json", "public_creds.json", "public_keys.jsons", "q.json"]) rmSync(join(dir, f), { force: true });
    const fp = electionFingerprint(electionJson);

    // Voter 1 with the tool, voters 2 to 4 with our code (one blank when allowed).
    writeFileSync(join(dir, "cred1"), priv[0]);
    writeFileSync(join(dir, "vote1"), JSON.stringify([question.blank ? [0, 1, 0, 0] : [1, 0, 0]]));
    const fromTool = tool(dir, ["election", "generate-ballot", "--privcred", "cred1", "--ballot", "vote1"]).trim();
    rmSync(join(dir, "cred1"));
    rmSync(join(dir, "vote1"));
    const checked = verifyBallot(fromTool, election, fp);
    expect(checked).toMatchObject({ ok: true, credential: pub[0] });
    expect(checked.ok && checked.tracker).toBe(tool(dir, ["sha256-b64"], fromTool).trim());
    expect(ballotTracker(fromTool)).toBe(checked.ok && checked.tracker);
    tool(dir, ["archive", "add-event", "--type=Ballot"], fromTool);

    const choices: Choice[] = question.blank ? [{ selected: [0, 2] }, { blank: true }, { selected: [1] }] : [{ selected: [1] }, { selected: [1] }, { selected: [2] }];
    const ours = choices.map((c, i) => generateBallot(electionJson, election, fp, priv[i + 1], c));
    for (const b of ours) {
      expect(verifyBallot(b, election, fp).ok).toBe(true);
      tool(dir, ["archive", "add-event", "--type=Ballot"], b);
    }
    expect(toolVerifies(dir).ok).toBe(true);

    // A ballot whose proof is changed, or for another election, is refused.
    const forged = ours[0].replace(/"response":"(\d)/, (_m, d: string) => `"response":"${d === "1" ? "2" : "1"}`);
    expect(verifyBallot(forged, election, fp)).toMatchObject({ ok: false, reason: "proof" });
    expect(verifyBallot(ours[0], { ...election, uuid: generateUuid() }, fp)).toMatchObject({ ok: false, reason: "election" });
    expect(verifyBallot(`${ours[0]} `, election, fp)).toMatchObject({ ok: false, reason: "format" });

    tool(dir, ["archive", "add-event", "--type=EndBallots"], "");
    const toolTally = tool(dir, ["election", "compute-encrypted-tally"]).trim();
    const tally = encryptedTally([fromTool, ...ours].map(parseBallot), question.answers.length + (question.blank ? 1 : 0));
    // The tool prints the tally, then its sized wrapper on a second line.
    expect(serializeEncryptedTally(tally)).toBe(toolTally.split("\n")[0]);
    tool(dir, ["archive", "add-event", "--type=EncryptedTally"], toolTally);

    writeFileSync(join(dir, "k1"), toolKey.priv);
    const toolPd = tool(dir, ["election", "decrypt", "--privkey", "k1", "--trustee-id", "1"]).trim();
    rmSync(join(dir, "k1"));
    expect(verifyPartialDecryption(fp, parseTrusteeKey(toolKey.pub), parseEncryptedTally(toolTally.split("\n")[0]), parsePartialDecryption(toolPd))).toBe(true);
    const ourPd = computePartialDecryption(fp, parsePrivateKey(ourKey.privateKey), parseTrusteeKey(ourKey.publicKey).publicKey, tally);
    expect(verifyPartialDecryption(fp, parseTrusteeKey(ourKey.publicKey), tally, ourPd)).toBe(true);
    expect(verifyPartialDecryption(fp, parseTrusteeKey(toolKey.pub), tally, ourPd)).toBe(false);
    tool(dir, ["archive", "add-event", "--type=PartialDecryption"], toolPd);
    tool(dir, ["archive", "add-event", "--type=PartialDecryption"], decryptOutput(ourPd, 2));
    const toolResult = tool(dir, ["election", "compute-result"]).trim();
    const counts = computeResult(tally, [parsePartialDecryption(toolPd), ourPd], 4);
    expect(serializeResult(counts)).toBe(toolResult);
    expect(counts).toEqual(question.blank ? [1, 2, 1, 1] : [1, 2, 1]);
    tool(dir, ["archive", "add-event", "--type=Result"], toolResult);
    const verified = toolVerifies(dir);
    expect(verified.output).toContain("all checks passed");
    expect(verified.ok).toBe(true);
  });
});

describe("an archive written by our code alone", () => {
  it("passes belenios-tool election verify at every stage, and a changed ballot is caught", () => {
    const dir = scratch();
    const uuid = generateUuid();
    const creds = [generateCredential(), generateCredential(), generateCredential()];
    const keys = [generateTrusteeKey(), generateTrusteeKey()];
    const pubKeys = keys.map((k) => parseTrusteeKey(k.publicKey));
    const election = {
      uuid,
      name: "Treasurer",
      description: "CSC election",
      publicKey: combineKeys(pubKeys),
      question: { answers: ["Yes", "No"], blank: true, min: 1, max: 1, question: "Adopt the budget?" },
    };
    const electionJson = serializeElection(election);
    const fp = electionFingerprint(electionJson);
    const records: ArchiveRecord[] = [];
    let last: { hash: string; height: number } | null = null;
    const append = (type: Parameters<typeof eventRecords>[1], payloads: string[]) => {
      const rs = eventRecords(last, type, payloads);
      records.push(...rs);
      last = { hash: rs[rs.length - 1].hash, height: (last?.height ?? -1) + 1 };
    };
    const publish = () => {
      const bel = buildArchive(1_800_000_000, records);
      for (const f of readdirSync(dir)) rmSync(join(dir, f));
      writeFileSync(join(dir, `${uuid}.bel`), bel);
      return bel;
    };
    const credentialsJson = JSON.stringify(creds.map((c) => publicCredential(c, uuid)).sort());
    append("Setup", setupPayloads(electionJson, serializeTrustees(pubKeys), credentialsJson));
    publish();
    expect(toolVerifies(dir)).toMatchObject({ ok: true });

    const ballots = [
      generateBallot(electionJson, election, fp, creds[0], { selected: [0] }),
      generateBallot(electionJson, election, fp, creds[1], { selected: [0] }),
      generateBallot(electionJson, election, fp, creds[2], { blank: true }),
    ];
    for (const b of ballots) append("Ballot", [b]);
    const bel = publish();
    expect(toolVerifies(dir)).toMatchObject({ ok: true });
    const chain = checkArchiveChain(bel);
    expect(chain).toMatchObject({ ok: true, fingerprint: last!.hash });

    // One changed byte in a stored ballot: our chain check names the member, the tool refuses it.
    const tampered = records.map((r) => ({ ...r }));
    const ballotRecord = tampered.find((r) => r.kind === "data" && r.content.startsWith('{"election_uuid"'))!;
    ballotRecord.content = ballotRecord.content.replace(/"alpha":"(\d)/, (_m, d: string) => `"alpha":"${d === "1" ? "2" : "1"}`);
    const badBel = buildArchive(1_800_000_000, tampered);
    const badDir = scratch();
    writeFileSync(join(badDir, `${uuid}.bel`), badBel);
    const badChain = checkArchiveChain(badBel);
    expect(badChain.ok).toBe(false);
    expect(badChain.problems.join("\n")).toContain(`${ballotRecord.hash}.data.json does not match its hash`);
    expect(toolVerifies(badDir).ok).toBe(false);

    append("EndBallots", []);
    const tally = encryptedTally(ballots.map(parseBallot), 3);
    const tallyJson = serializeEncryptedTally(tally);
    const sized = JSON.stringify({ num_tallied: 3, total_weight: 3, encrypted_tally: sha256Hex(tallyJson) });
    append("EncryptedTally", [tallyJson, sized]);
    publish();
    expect(toolVerifies(dir)).toMatchObject({ ok: true });

    const pds = keys.map((k, i) => computePartialDecryption(fp, parsePrivateKey(k.privateKey), pubKeys[i].publicKey, tally));
    pds.forEach((pd, i) => {
      const text = serializePartialDecryption(pd);
      append("PartialDecryption", [text, JSON.stringify({ owner: i + 1, payload: sha256Hex(text) })]);
    });
    append("Result", [serializeResult(computeResult(tally, pds, 3))]);
    expect(computeResult(tally, pds, 3)).toEqual([1, 2, 0]);
    publish();
    const final = toolVerifies(dir);
    expect(final.output).toContain("all checks passed");
    expect(final.ok).toBe(true);
    // The tool's own result agrees with ours.
    expect(tool(dir, ["election", "compute-result"]).trim()).toBe(serializeResult([1, 2, 0]));
  });
});
