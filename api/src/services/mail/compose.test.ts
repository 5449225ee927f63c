import { describe, expect, it } from "vitest";
import { composeMessage } from "./compose.ts";

const election = { title: "Department Elections", subtitle: "CSC Leadership 2025", startTime: Date.parse("2026-03-02T08:00:00Z"), endTime: Date.parse("2026-03-02T16:00:00Z") };
const appUrl = "https://vote.uniport.test";

describe("the words of each message", () => {
  it("an invitation: the title, the window in the university's time, a link to sign in, text and HTML", () => {
    const m = composeMessage({ kind: "invitation", name: "Ada Obi", election, appUrl });
    expect(m.subject).toBe("You are invited to vote: Department Elections");
    expect(m.text).toContain("Dear Ada Obi,");
    expect(m.text).toContain("Department Elections (CSC Leadership 2025)");
    expect(m.text).toMatch(/Voting opens Mon, 2 Mar 2026, 09:00 (WAT|GMT\+1) and closes Mon, 2 Mar 2026, 17:00 (WAT|GMT\+1)\./);
    expect(m.text).toContain(`${appUrl}/login`);
    expect(m.html).toContain(`<a href="${appUrl}/login">Sign in to vote</a>`);
  });

  it("escapes what it did not write in the HTML copy", () => {
    const m = composeMessage({ kind: "reminder", name: "<img src=x onerror=alert(1)>", election: { ...election, title: 'A & B "quoted"' }, appUrl });
    expect(m.html).not.toContain("<img");
    expect(m.html).toContain("&lt;img src=x onerror=alert(1)&gt;");
    expect(m.html).toContain("A &amp; B &quot;quoted&quot;");
  });

  it("a reset carries its link and says how long it works; results and reminders carry only the sign-in link", () => {
    const reset = composeMessage({ kind: "password-reset", name: "Ada", election, appUrl, resetLink: `${appUrl}/reset-password?token=abc.def` });
    expect(reset.text).toContain(`${appUrl}/reset-password?token=abc.def`);
    expect(reset.text).toContain("within 30 minutes");
    for (const kind of ["reminder", "results"] as const) {
      const m = composeMessage({ kind, name: "Ada", election, appUrl });
      expect(m.text.match(/https?:\/\/\S+/g)).toEqual([`${appUrl}/login`]);
    }
  });
});
