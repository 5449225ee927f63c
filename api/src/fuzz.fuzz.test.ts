/**
 * Hostile input: a property-based fuzzer sends malformed bodies, wrong types, huge
 * strings, odd Unicode, bad multipart, hostile uploads and forged or expired tokens to every
 * route. Properties: no answer is a 5xx, every error is JSON with a message, the app keeps
 * answering, and nothing stored changes (a fingerprint of every table before and after).
 *
 * `npm test` runs FUZZ_RUNS=60 per property (a few thousand requests in all); for the big
 * run: FUZZ_RUNS=2000 npx vitest run --project node api/src/fuzz.fuzz.test.ts
 * A failure prints its seed; FUZZ_SEED=<seed> replays that run.
 */
import { createHash } from "node:crypto";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_PHOTO_BYTES } from "@evoting/shared";
import { signToken } from "./security/keys.ts";
import { createTestApp, TINY_PNG, type TestApp } from "./test/harness.ts";

const RUNS = Number(process.env.FUZZ_RUNS ?? 60);
const TIMEOUT = Math.max(60_000, RUNS * 2_000);
if (process.env.FUZZ_SEED) fc.configureGlobal({ seed: Number(process.env.FUZZ_SEED) });

let t: TestApp;
let admin: string;
let voter: string;
let expired: string;
let positionId: string;
let before: Record<string, string>;
let requests = 0;
const statusCounts: Record<number, number> = {};

/** One hash per table, so a failure names the table that changed. */
async function fingerprint(): Promise<Record<string, string>> {
  const c = t.database.client;
  const tables = await c.execute(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '__drizzle%' ORDER BY name",
  );
  const out: Record<string, string> = {};
  for (const row of tables.rows) {
    const name = String(row.name);
    const rs = await c.execute(`SELECT * FROM "${name}"`);
    const lines = rs.rows.map((r) =>
      JSON.stringify(Object.values(r), (_k, v) => (v instanceof ArrayBuffer ? Buffer.from(v).toString("hex") : typeof v === "bigint" ? String(v) : v)),
    );
    out[name] = `${rs.rows.length} rows ${createHash("sha256").update(lines.sort().join("\n")).digest("hex").slice(0, 16)}`;
  }
  return out;
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.adminToken();
  // Open for a day either side: the expired-token test moves the clock 13 h ahead, and a close
  // in that time would rightly record its own integrity check, which is no hostile input's doing.
  const day = 24 * 3_600_000;
  const now = t.clock.now();
  positionId = (await t.createPosition(admin, "President", new Date(now - day).toISOString(), new Date(now + day).toISOString()))._id;
  for (const name of ["Ada", "Grace"]) await t.createCandidate(admin, positionId, name);
  await t.createCandidate(admin, positionId, "Photo Person", new Blob([TINY_PNG], { type: "image/png" }));
  voter = (await t.createVoter(admin)).token;
  // A session that is about to lapse: moved past its 12 h lifetime below, then used.
  expired = (await t.createVoter(admin, "19991231")).token;
  before = await fingerprint();
});

afterAll(async () => {
  expect(await fingerprint(), "stored data changed under hostile input").toEqual(before);
  expect(({} as Record<string, unknown>).role, "prototype polluted").toBeUndefined();
  console.log(`fuzz: ${requests} hostile requests, statuses ${JSON.stringify(statusCounts)}`);
  await t.close();
});

async function send(path: string, init: RequestInit & { token?: string; json?: unknown }): Promise<Response> {
  requests++;
  const res = await t.request(path, init);
  statusCounts[res.status] = (statusCounts[res.status] ?? 0) + 1;
  const text = await res.text();
  expect(res.status, `${init.method ?? "GET"} ${path} -> ${res.status} ${text.slice(0, 300)}`).toBeLessThan(500);
  if (res.status >= 400) {
    const body = JSON.parse(text) as { message?: unknown };
    expect(typeof body.message, `${path} error body`).toBe("string");
  }
  return res;
}

/** Lone surrogates cannot be percent-encoded; the fetch layer would refuse them anyway. */
const wellFormed = (v: string) => v.replace(/[\uD800-\uDFFF]/gu, "\uFFFD");

/**
 * Headers carrying `value`, or undefined when no HTTP client could send it: `Headers` refuses
 * some values and the wire refuses control characters (Node's own parser answers those with a
 * bare 400 before the app sees them), so they never reach a route.
 */
function headerOrSkip(name: string, value: string): Headers | undefined {
  if (/[^\t\x20-\x7e\x80-\xff]/.test(value)) return undefined;
  try {
    return new Headers({ [name]: value });
  } catch {
    return undefined;
  }
}

// ---- value generators ------------------------------------------------------------------

const oddUnicode = fc.oneof(
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc.constantFrom("\u0000", "\uFEFF2020/5570001", "２０２０/５５７０１２３", "2020/5570１", "\u202Eevil", "𝟚𝟘𝟚𝟘/𝟝𝟝𝟟𝟘𝟙", "a\u0301\u0301\u0301", "\uD800", "😀".repeat(30), "<script>alert(1)</script>", "' OR 1=1 --", "${jndi:x}", "../../etc/passwd"),
);
const huge = fc.integer({ min: 600, max: 70_000 }).map((n) => "x".repeat(n));
const wrongType = fc.oneof(fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.array(fc.jsonValue(), { maxLength: 4 }), fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue(), { maxKeys: 3 }));
const anyValue = fc.oneof(oddUnicode, huge, wrongType, fc.string({ maxLength: 30 }));

const notMatric = oddUnicode.filter((s) => !/^\d{4}\/5570\d+$/.test(s));
const notDob = fc.oneof(oddUnicode.filter((s) => !/^\d{8}$/.test(s)), fc.integer().filter((n) => !/^\d{8}$/.test(String(n))));
const notEmail = oddUnicode.filter((s) => !s.trim().toLowerCase().endsWith("@uniport.edu.ng"));
const notDate = oddUnicode.filter((s) => Number.isNaN(Date.parse(s)));
const shortText = fc.string({ maxLength: 5 });
const blank = fc.constantFrom("", " ", "\t\n", "\u00A0");

interface FieldSpec {
  /** Values that alone make the body invalid for this field. */
  bad: fc.Arbitrary<unknown>;
  /** Optional fields are never dropped to make a body invalid (dropping them may not). */
  optional?: boolean;
}

/** An object with each field maybe present, and at least one field sure to be invalid or missing. */
function hostileObject(fields: Record<string, FieldSpec>): fc.Arbitrary<unknown> {
  const names = Object.keys(fields);
  const obj = fc
    .tuple(
      fc.constantFrom(...names),
      fc.boolean(),
      fc.dictionary(fc.constantFrom(...names), anyValue, { maxKeys: names.length }),
      fc.dictionary(fc.constantFrom("__proto__", "constructor", "role", "isAdmin", "_id", "userId", "voterId", "extra"), fc.jsonValue(), { maxKeys: 3 }),
    )
    .chain(([victim, drop, rest, extras]) =>
      fields[victim].bad.map((bad) => {
        const out: Record<string, unknown> = { ...extras, ...rest };
        if (drop && !fields[victim].optional) delete out[victim];
        else out[victim] = bad;
        return out;
      }),
    );
  return fc.oneof(
    { weight: 6, arbitrary: obj },
    { weight: 1, arbitrary: fc.oneof(wrongType, oddUnicode, fc.array(anyValue, { maxLength: 3 })) },
  );
}

/** Raw bodies that are not the JSON they claim to be, or are JSON of a hostile shape. */
const rawBody = fc.oneof(
  fc.string({ unit: "binary", maxLength: 200 }),
  fc.constantFrom(
    "",
    "{",
    "{\"a\":",
    "[".repeat(5_000),
    `${"[".repeat(3_000)}${"]".repeat(3_000)}`,
    `${'{"a":'.repeat(2_000)}1${"}".repeat(2_000)}`,
    '{"__proto__":{"role":"admin","isAdmin":true}}',
    '{"constructor":{"prototype":{"role":"admin"}}}',
    "\uFEFF{}",
    "null",
    "1e999999",
    '"\\ud800"',
    "{\"matricNumber\":\"2020/5570001\",\"matricNumber\":{\"$ne\":null}}",
  ),
);
const contentType = fc.constantFrom(
  "application/json",
  "application/json; charset=utf-16",
  "application/merge-patch+json",
  "text/plain",
  "application/x-www-form-urlencoded",
  "multipart/form-data",
  "multipart/form-data; boundary=",
  "",
  "application/json\r\nX-Injected: 1",
);

// ---- routes ------------------------------------------------------------------------------

const jsonRoutes: { method: string; path: string; token: () => string | undefined; fields: Record<string, FieldSpec> }[] = [
  { method: "POST", path: "/auth/check-user", token: () => undefined, fields: { matricNumber: { bad: notMatric } } },
  {
    method: "POST",
    path: "/auth/login",
    token: () => undefined,
    fields: { matricNumber: { bad: fc.oneof(notMatric, huge) }, dateOfBirth: { bad: fc.oneof(notDob, huge), optional: true }, password: { bad: fc.oneof(huge, wrongType), optional: true } },
  },
  { method: "PUT", path: "/auth/email", token: () => voter, fields: { email: { bad: fc.oneof(notEmail, huge, wrongType, blank) } } },
  {
    method: "PUT",
    path: "/auth/password",
    token: () => voter,
    fields: { newPassword: { bad: fc.oneof(shortText, huge, wrongType) }, currentPassword: { bad: fc.oneof(huge, wrongType), optional: true } },
  },
  {
    method: "POST",
    path: "/admin/users",
    token: () => admin,
    fields: { name: { bad: fc.oneof(blank, huge, wrongType) }, matricNumber: { bad: notMatric }, dateOfBirth: { bad: notDob } },
  },
  {
    method: "POST",
    path: "/admin/positions",
    token: () => admin,
    fields: { title: { bad: fc.oneof(blank, huge, wrongType) }, startTime: { bad: fc.oneof(notDate, wrongType) }, endTime: { bad: fc.oneof(notDate, wrongType) } },
  },
  {
    method: "POST",
    path: "/vote",
    token: () => voter,
    fields: {
      positionId: { bad: fc.oneof(oddUnicode, huge, wrongType, fc.constant("no-such-position")) },
      candidateId: { bad: fc.oneof(oddUnicode, huge, wrongType) },
      ballotTicket: { bad: fc.oneof(huge, wrongType), optional: true },
    },
  },
  // Election settings and position edits.
  {
    method: "PUT",
    path: "/admin/election",
    token: () => admin,
    fields: {
      title: { bad: fc.oneof(blank, huge, wrongType) },
      subtitle: { bad: fc.oneof(huge, wrongType), optional: true },
      startTime: { bad: fc.oneof(notDate, wrongType) },
      endTime: { bad: fc.oneof(notDate, wrongType) },
      resultsVisibility: { bad: fc.oneof(oddUnicode, wrongType) },
      ballotOrder: { bad: fc.oneof(oddUnicode, wrongType) },
      unopposed: { bad: fc.oneof(oddUnicode, wrongType) },
    },
  },
  {
    method: "PATCH",
    path: "/admin/positions/no-such-position",
    token: () => admin,
    fields: {
      title: { bad: fc.oneof(blank, huge, wrongType), optional: true },
      startTime: { bad: fc.oneof(notDate, wrongType), optional: true },
      endTime: { bad: fc.oneof(notDate, wrongType), optional: true },
      eligibleGroups: { bad: fc.oneof(huge, wrongType, oddUnicode), optional: true },
      allowAbstain: { bad: fc.oneof(oddUnicode, wrongType), optional: true },
    },
  },
  // Mail: a notice's kind and groups, and a reset link's confirmation (never valid here, so nothing is written).
  {
    method: "POST",
    path: "/admin/notifications",
    token: () => admin,
    fields: {
      kind: { bad: fc.oneof(oddUnicode, wrongType) },
      groups: { bad: fc.oneof(huge, fc.integer(), fc.constant(null), fc.array(huge, { minLength: 1, maxLength: 2 })), optional: true },
    },
  },
  {
    method: "POST",
    path: "/auth/password-reset/confirm",
    token: () => undefined,
    fields: { token: { bad: fc.oneof(wrongType, fc.constant("")) }, newPassword: { bad: fc.oneof(shortText, wrongType) } },
  },
  { method: "POST", path: "/chat/messages", token: () => voter, fields: { text: { bad: fc.oneof(blank, wrongType, fc.constant("y".repeat(5_000))) } } },
  {
    method: "POST",
    path: "/chat/mutes",
    token: () => admin,
    fields: { userId: { bad: fc.oneof(blank, huge, wrongType) }, minutes: { bad: fc.oneof(oddUnicode, fc.double({ noInteger: true }), fc.integer({ max: 0 }), fc.constant(10 ** 9)) } },
  },
];

describe("hostile JSON", () => {
  for (const route of jsonRoutes) {
    it(`${route.method} ${route.path}: hostile objects, raw bodies and content types`, async () => {
      await fc.assert(
        fc.asyncProperty(hostileObject(route.fields), async (body) => {
          await send(route.path, { method: route.method, token: route.token(), json: body });
        }),
        { numRuns: RUNS },
      );
      await fc.assert(
        fc.asyncProperty(rawBody, contentType, async (body, type) => {
          const headers = type ? headerOrSkip("content-type", type) : new Headers();
          if (!headers) return;
          await send(route.path, { method: route.method, token: route.token(), headers, body });
        }),
        { numRuns: Math.ceil(RUNS / 2) },
      );
    }, TIMEOUT);
  }

  it("POST /vote with the real position and hostile candidates, keys and tickets", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(oddUnicode, huge, wrongType),
        fc.oneof(fc.constant(undefined), oddUnicode, fc.uuid(), fc.constant("x".repeat(9_000))),
        fc.oneof(fc.constant(undefined), oddUnicode, fc.string({ unit: "binary", maxLength: 600 })),
        async (candidateId, key, ballotTicket) => {
          const headers = key === undefined ? new Headers() : headerOrSkip("idempotency-key", key);
          if (!headers) return;
          await send("/vote", { method: "POST", token: voter, headers, json: { positionId, candidateId, ballotTicket } });
        },
      ),
      { numRuns: RUNS },
    );
  }, TIMEOUT);
});

describe("hostile paths, queries and tokens", () => {
  const segment = fc.oneof(oddUnicode, fc.uuid(), huge.map((s) => s.slice(0, 3_000)), fc.constantFrom("..", "%00", "%2e%2e%2f", "%ff%fe", "%", "null", "undefined", "1e9999", "-1", "0"));

  it("ids in paths and queries", async () => {
    await fc.assert(
      fc.asyncProperty(segment, segment, async (a, b) => {
        const enc = (v: string) => encodeURIComponent(wellFormed(v));
        const id = enc(a);
        await send(`/admin/positions/${id}`, { method: "DELETE", token: admin });
        await send(`/admin/candidates/${id}`, { method: "DELETE", token: admin });
        await send(`/photos/${id}`, {});
        await send(`/chat/messages/${id}`, { method: "DELETE", token: admin });
        await send(`/chat/mutes/${id}`, { method: "DELETE", token: voter });
        await send(`/chat/messages?before=${id}&limit=${enc(b)}`, { token: voter });
        await send(`/realtime?channel=${id}&token=${enc(b)}`, {});
        await send(`/chat/stream?token=${id}&lastEventId=${enc(b)}`, {});
      }),
      { numRuns: RUNS },
    );
  }, TIMEOUT);

  it("forged, malformed and expired bearer and stream tokens", async () => {
    t.clock.advance(13 * 3_600_000); // every session made in set-up but the admin's is now past its lifetime
    const expiredNow = expired;
    const forgedSigned = fc
      .record({ k: fc.constantFrom("stream", "chat", "ticket", "session", "admin"), exp: fc.integer(), sub: fc.string(), role: fc.constant("admin") })
      .map((payload) => {
        const real = signToken({ seal: Buffer.alloc(32), fingerprint: Buffer.alloc(32), sign: Buffer.alloc(32, 7), receipt: Buffer.alloc(32), audit: Buffer.alloc(32), dob: Buffer.alloc(32), ballot: Buffer.alloc(32) }, payload);
        return real; // signed with the wrong key
      });
    const token = fc.oneof(
      oddUnicode,
      fc.string({ minLength: 20, maxLength: 200 }),
      fc.base64String({ minLength: 40, maxLength: 48 }),
      forgedSigned,
      fc.constant(expiredNow),
      fc.constant(voter), // the voter's session expired too
    );
    try {
      await fc.assert(
        fc.asyncProperty(token, fc.constantFrom("Bearer ", "bearer ", "Basic ", "", "Bearer  "), async (tok, scheme) => {
          const headers = headerOrSkip("authorization", `${scheme}${tok}`);
          if (!headers) return;
          for (const [method, path] of [
            ["GET", "/auth/profile"],
            ["GET", "/vote/my-votes"],
            ["GET", "/vote/results"],
            ["POST", "/auth/logout"],
            ["GET", "/admin/candidates"],
            ["GET", "/realtime/token"],
            ["GET", "/chat/status"],
          ]) {
            const res = await send(path, { method, headers });
            expect(res.status, `${method} ${path} with ${scheme}${String(tok).slice(0, 60)}`).toBe(401);
          }
          const q = encodeURIComponent(wellFormed(String(tok)));
          for (const path of [`/realtime?channel=ballot-updates&token=${q}`, `/chat/stream?token=${q}`]) {
            const res = await send(path, {});
            expect([400, 401], path).toContain(res.status);
          }
        }),
        { numRuns: RUNS },
      );
    } finally {
      t.clock.advance(-13 * 3_600_000);
    }
  }, TIMEOUT);
});

describe("hostile uploads", () => {
  const PNG_HEAD = TINY_PNG.subarray(0, 8);
  const html = Buffer.from('<html><script>alert(document.cookie)</script></html>');
  const svg = Buffer.from('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(2)</script></svg>');
  const hostileFile = fc.oneof(
    // (An empty file part is how a form says "no photo"; that is not an upload.)
    fc.uint8Array({ minLength: 1, maxLength: 3_000 }).map((b) => Buffer.from(b)),
    fc.constant(Buffer.concat([PNG_HEAD, html])),
    fc.constant(Buffer.concat([TINY_PNG, html])),
    fc.constant(Buffer.concat([Buffer.from("GIF89a"), html])),
    fc.constant(Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), html])),
    fc.constant(Buffer.concat([Buffer.from("RIFF\x10\x00\x00\x00WEBPVP8 "), html])),
    fc.constant(svg),
    fc.constant(html),
    fc.constant(Buffer.from("%PDF-1.7\n%âãÏÓ\n1 0 obj<<>>endobj\n%%EOF")),
    fc.constant(Buffer.from("PK\x03\x04 zip pretending to be an image")),
    fc.constant(TINY_PNG.subarray(0, TINY_PNG.length - 3)),
  );
  const fileName = fc.constantFrom("photo.png", "photo.jpg", "a.gif", "x.webp", "x.svg", "evil.png.html", "../../etc/passwd.png", "\u202Egnp.exe", "");
  const mime = fc.constantFrom("image/png", "image/jpeg", "image/svg+xml", "text/html", "application/octet-stream", "");

  it("non-images with image names, polyglots, SVG and truncated images are refused", async () => {
    await fc.assert(
      fc.asyncProperty(hostileFile, fileName, mime, oddUnicode, async (bytes, name, type, candidateName) => {
        const form = new FormData();
        form.set("name", candidateName.trim() && candidateName.length <= 120 ? candidateName : "Mallory");
        form.set("positionId", positionId);
        form.set("photo", new Blob([bytes], { type }), name);
        const res = await send("/admin/candidates", { method: "POST", token: admin, body: form });
        expect([400, 413], `file of ${bytes.length} bytes named ${name}`).toContain(res.status);
      }),
      { numRuns: RUNS },
    );
  }, TIMEOUT);

  it("oversized files, several photos and broken multipart are refused", async () => {
    const big = new FormData();
    big.set("name", "Big");
    big.set("positionId", positionId);
    big.set("photo", new Blob([Buffer.concat([TINY_PNG.subarray(0, 33), Buffer.alloc(MAX_PHOTO_BYTES + 10), TINY_PNG.subarray(33)])]), "big.png");
    expect((await send("/admin/candidates", { method: "POST", token: admin, body: big })).status).toBe(413);

    const two = new FormData();
    two.set("name", "Two");
    two.set("positionId", positionId);
    two.append("photo", new Blob([TINY_PNG], { type: "image/png" }), "a.png");
    two.append("photo", new Blob([TINY_PNG], { type: "image/png" }), "b.png");
    expect((await send("/admin/candidates", { method: "POST", token: admin, body: two })).status).toBe(400);

    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.string({ unit: "binary", maxLength: 500 }), fc.constantFrom("--xyz\r\nContent-Disposition: form-data; name=\"name\"\r\n\r\nA", "--xyz--", "--xyz\r\n\r\n\r\n--xyz--", "--xyz\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"a.png\"\r\n\r\n\x89PNG")),
        fc.constantFrom("multipart/form-data; boundary=xyz", "multipart/form-data", "multipart/form-data; boundary=", "multipart/mixed; boundary=xyz", "application/json"),
        async (body, type) => {
          await send("/admin/candidates", { method: "POST", token: admin, headers: { "content-type": type }, body });
        },
      ),
      { numRuns: RUNS },
    );
  }, TIMEOUT);

  it("regression: start times beyond the Date range are a 400, not a 500", async () => {
    for (const startTime of [-8640000000000001, 8.7e15, Number.MAX_SAFE_INTEGER]) {
      const res = await send("/admin/positions", { method: "POST", token: admin, json: { title: "T", startTime, endTime: "x" } });
      expect(res.status).toBe(400);
    }
  });

  it("the app still answers after all of it", async () => {
    const res = await t.request("/vote/results", { token: voter });
    expect(res.status).toBe(200);
  });
});
