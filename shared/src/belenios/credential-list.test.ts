/**
 * A polling station's list of public credentials (credential.ts): the entry is the first 8 bytes of
 * SHA-256 of the credential as the archive writes it, and the booth's binary search finds every
 * entry of a list packed in any order, at its ends too, and nothing else.
 */
import { createHash, randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { credentialEntry, credentialListHas, G, generateCredential, packCredentialList, powm, publicCredential, randomZq } from "./index.ts";

describe("a station's list of public credentials", () => {
  it("holds each public credential's entry, the first 8 bytes of its SHA-256 as Node computes it", () => {
    const publics = Array.from({ length: 3 }, () => powm(G, randomZq()).toString());
    for (const p of publics) expect(credentialEntry(p)).toBe(createHash("sha256").update(p, "utf8").digest("hex").slice(0, 16));
    const list = packCredentialList(publics.map(credentialEntry));
    expect(list).toHaveLength(48);
    for (const p of publics) expect(credentialListHas(list, credentialEntry(p))).toBe(true);
  });

  it("finds every entry of a list packed in any order, the first and the last too, and no other", () => {
    const entries = Array.from({ length: 1_001 }, () => randomBytes(8).toString("hex"));
    const list = packCredentialList(entries);
    expect(list.slice(0, 16)).toBe([...entries].sort()[0]);
    for (const e of entries) expect(credentialListHas(list, e)).toBe(true);
    for (let i = 0; i < 1_000; i++) expect(credentialListHas(list, randomBytes(8).toString("hex"))).toBe(false);
    expect(credentialListHas(list, "0000000000000000")).toBe(entries.includes("0000000000000000"));
    expect(credentialListHas(list, "ffffffffffffffff")).toBe(entries.includes("ffffffffffffffff"));
    expect(credentialListHas("", entries[0])).toBe(false);
    expect(credentialListHas(packCredentialList([entries[0]]), entries[0])).toBe(true);
  });

  it("a credential's public credential is listed for its own election only", () => {
    const credential = generateCredential();
    const list = packCredentialList([credentialEntry(publicCredential(credential, "AbCdEfGhJkLmNp"))]);
    expect(credentialListHas(list, credentialEntry(publicCredential(credential, "AbCdEfGhJkLmNp")))).toBe(true);
    expect(credentialListHas(list, credentialEntry(publicCredential(credential, "ZyXwVuTsRqPnMk")))).toBe(false);
  });
});
