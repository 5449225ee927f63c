import { describe, expect, test } from "vitest";
import { render, screen } from "@testing-library/react";
import { LogoMark } from "./LogoMark";

describe("LogoMark", () => {
  test("with a label it is an image of that name; without one, hidden decoration", () => {
    const { container } = render(
      <>
        <LogoMark size={40} label="CSC E-Voting logo" />
        <LogoMark size={28} />
      </>,
    );
    expect(screen.getByRole("img", { name: "CSC E-Voting logo" })).toHaveAttribute("width", "40");
    const logos = container.querySelectorAll("svg");
    expect(logos[1]).toHaveAttribute("aria-hidden", "true");
    expect(screen.getAllByRole("img")).toHaveLength(1);
  });

  test("two logos on one page each fill from their own gradient", () => {
    const { container } = render(
      <>
        <LogoMark size={40} />
        <LogoMark size={40} />
      </>,
    );
    const ids = [...container.querySelectorAll("linearGradient")].map((g) => g.id);
    expect(ids).toHaveLength(2);
    expect(new Set(ids).size).toBe(2);
    for (const id of ids) {
      expect(id).toMatch(/^[\w-]+$/);
      expect(container.querySelector(`rect[fill="url(#${id})"]`)).not.toBeNull();
    }
  });
});
