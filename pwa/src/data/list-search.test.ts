import { describe, expect, test } from "vitest";
import { auditSearch, nominationsSearch, votersSearch, withoutDefaults } from "./list-search";

describe("list screens' URL search", () => {
  test("keeps good values, and a number the router parsed from a text filter reads as its text", () => {
    expect(votersSearch({ query: 123, group: "400L", voted: "no", page: 2 })).toEqual({ query: "123", group: "400L", voted: "no", page: 2 });
    expect(auditSearch({ action: "vote.cast", actor: "ada", page: "3" })).toEqual({ action: "vote.cast", actor: "ada", page: 3 });
    expect(nominationsSearch({ state: "rejected", positionId: "p1" })).toEqual({ state: "rejected", positionId: "p1" });
  });

  test("a bad or missing value falls back to the default and leaves the search", () => {
    expect(votersSearch({ voted: "maybe", page: -3, query: { a: 1 } })).toEqual({});
    expect(votersSearch({ page: 1.5 })).toEqual({});
    expect(votersSearch({ page: "" })).toEqual({});
    expect(auditSearch({ page: "two", action: null })).toEqual({});
    expect(auditSearch({})).toEqual({});
    expect(nominationsSearch({ state: "maybe" })).toEqual({});
  });

  test("the URL names only what is set", () => {
    expect(withoutDefaults({ query: "", group: "400L", page: 1 })).toEqual({ group: "400L" });
  });
});
