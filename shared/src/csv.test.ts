import { describe, expect, it } from "vitest";
import { escapeCsvCell, toCsv } from "./csv.ts";
import { resultsCsv } from "./results-csv.ts";

describe("escapeCsvCell", () => {
  it("prefixes formula starters with a quote", () => {
    expect(escapeCsvCell("=SUM(A1:A9)")).toBe("'=SUM(A1:A9)");
    expect(escapeCsvCell("+2348012345678")).toBe("'+2348012345678");
    expect(escapeCsvCell("-1")).toBe("'-1");
    expect(escapeCsvCell("@cmd")).toBe("'@cmd");
    expect(escapeCsvCell("\t=1")).toBe("'\t=1");
    expect(escapeCsvCell("\r=1")).toBe("\"'\r=1\"");
  });
  it("quotes commas, quotes and line breaks, doubling quotes", () => {
    expect(escapeCsvCell('say "hi", then\nleave')).toBe('"say ""hi"", then\nleave"');
    expect(escapeCsvCell('=1,"2"')).toBe('"\'=1,""2"""');
  });
  it("leaves plain text, numbers and empties alone", () => {
    expect(escapeCsvCell("Ada Obi")).toBe("Ada Obi");
    expect(escapeCsvCell("a=b")).toBe("a=b");
    expect(escapeCsvCell(-3)).toBe("-3");
    expect(escapeCsvCell(null)).toBe("");
    expect(escapeCsvCell(undefined)).toBe("");
    expect(escapeCsvCell(true)).toBe("true");
  });
  it("toCsv ends every line with CRLF", () => {
    expect(toCsv(["a", "b"], [["1", 2]])).toBe("a,b\r\n1,2\r\n");
  });
});

describe("resultsCsv", () => {
  const entry = (candidateId: string, name: string, votes: number) => ({ candidateId, name, photo: null, votes });
  it("writes Yes and No for a Yes/No position and Abstain apart, without a share", () => {
    const csv = resultsCsv({
      results: [
        { positionId: "p", positionTitle: "Treasurer", totalVotes: 6, breakdown: [entry("c1", "Uche", 3)], noVotes: 1, abstentions: 2, yesNo: true },
        { positionId: "q", positionTitle: "PRO", totalVotes: 0, breakdown: [entry("c2", "Ife", 0), entry("c3", "Bayo", 0)] },
      ],
    });
    expect(csv.split("\r\n")).toEqual([
      "position,choice,candidateId,votes,percentage,outcome",
      "Treasurer,Yes: Uche,c1,3,75.00,elected",
      "Treasurer,No,,1,25.00,",
      "Treasurer,Abstain,,2,,",
      "PRO,Bayo,c3,0,0.00,",
      "PRO,Ife,c2,0,0.00,",
      "",
    ]);
  });
  it("says not elected when No wins", () => {
    const csv = resultsCsv({ results: [{ positionId: "p", positionTitle: "T", totalVotes: 3, breakdown: [entry("c1", "U", 1)], noVotes: 2, yesNo: true }] });
    expect(csv).toContain("T,Yes: U,c1,1,33.33,not elected");
  });
  it("adds the verification column only when a position is verifiable, on every row of the election", () => {
    const ordinary = { positionId: "q", positionTitle: "PRO", totalVotes: 1, breakdown: [entry("c2", "Ife", 1)] };
    const verifiable = (verified: boolean) => ({
      positionId: "p",
      positionTitle: "President",
      totalVotes: 2,
      breakdown: [entry("c1", "Ada", verified ? 2 : 0)],
      belenios: { state: verified ? ("decrypted" as const) : ("open" as const), verified, fingerprint: verified ? "f1nger" : null },
    });
    expect(resultsCsv({ results: [ordinary] }).split("\r\n")[0]).toBe("position,choice,candidateId,votes,percentage,outcome");
    expect(resultsCsv({ results: [verifiable(true), ordinary] }).split("\r\n")).toEqual([
      "position,choice,candidateId,votes,percentage,outcome,verification",
      "President,Ada,c1,2,100.00,elected,Verified with Belenios; final fingerprint f1nger",
      "PRO,Ife,c2,1,100.00,elected,",
      "",
    ]);
    const provisional = resultsCsv({ results: [verifiable(false)], provisional: true }).split("\r\n");
    expect(provisional[1]).toBe("President,Ada,c1,0,0.00,,Encrypted: counted when the trustees decrypt");
    expect(provisional[2].split(",")).toHaveLength(7);
  });
  it("a lone candidate without the yes-no setting (docs/product.md) is an ordinary row", () => {
    const csv = resultsCsv({ results: [{ positionId: "p", positionTitle: "T", totalVotes: 2, breakdown: [entry("c1", "U", 2)] }] });
    expect(csv.split("\r\n")[1]).toBe("T,U,c1,2,100.00,elected");
  });
});
