/** All Candidates shows each manifesto as plain text, never as HTML. */
import { screen } from "@testing-library/react";
import { expect, test } from "vitest";
import { json, mockFetch } from "../test/fetch-mock";
import { renderWithQuery } from "../test/render";
import { openPosition } from "../test/ballot";
import { CandidatesPage } from "./CandidatesPage";

test("manifestos show as text, with their line breaks; candidates without one show none", async () => {
  const manifesto = "Line one.\n<img src=x onerror=alert(1)> stays text";
  mockFetch({
    "GET /api/vote/positions": () => json([openPosition("p1", "President", ["Ada", "Grace"], {}, (i) => ({ manifesto: i === 0 ? manifesto : null }))]),
  });
  renderWithQuery(<CandidatesPage />);
  const shown = await screen.findByTestId("manifesto-p1-c0", {}, { timeout: 8000 });
  expect(shown.textContent).toBe(manifesto);
  expect(shown.querySelector("img")).toBeNull();
  expect(screen.queryByTestId("manifesto-p1-c1")).not.toBeInTheDocument();
});
