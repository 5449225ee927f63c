import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { messages, type RollReport } from "@evoting/shared";
import { renderRoute } from "../../../test/render";
import { session } from "../../../auth/session";
import { ImportVotersPage } from "../ImportVotersPage";

/** A stand-in for XMLHttpRequest that the test drives: upload progress, then the answer. */
class FakeXhr {
  static last: FakeXhr | null = null;
  url = "";
  headers: Record<string, string> = {};
  body: FormData | null = null;
  status = 0;
  statusText = "";
  responseText = "";
  upload: { onprogress?: (e: { lengthComputable: boolean; loaded: number; total: number }) => void; onload?: () => void } = {};
  onload?: () => void;
  onerror?: () => void;
  open(_method: string, url: string) {
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: FormData) {
    this.body = body;
    FakeXhr.last = this;
  }
  progress(fraction: number) {
    this.upload.onprogress?.({ lengthComputable: true, loaded: fraction * 1000, total: 1000 });
    if (fraction === 1) this.upload.onload?.();
  }
  respond(status: number, body: unknown) {
    this.status = status;
    this.responseText = JSON.stringify(body);
    this.onload?.();
  }
}

beforeEach(() => {
  vi.stubGlobal("XMLHttpRequest", FakeXhr);
  session.signIn("token-123456789012345678901", { _id: "a", name: "Admin", role: "admin", matricNumber: "0000/5570000", email: null, hasPassword: true });
});
afterEach(() => {
  vi.unstubAllGlobals();
  session.clear();
});

const csv = (text: string) => new File([text], "roll.csv", { type: "text/csv" });
const report = (over: Partial<RollReport>): RollReport => ({ dryRun: true, total: 3, created: 3, updated: 0, unchanged: 0, errors: [], ...over });

describe("ImportVotersPage", () => {
  test("uploads with a real progress bar, shows the errors, then imports the corrected file", async () => {
    renderRoute(ImportVotersPage, "/admin/voters/import");
    const input = await screen.findByLabelText("CSV File");
    await userEvent.upload(input, csv("bad"));
    await userEvent.click(screen.getByRole("button", { name: "Check File" }));

    const xhr = FakeXhr.last!;
    expect(xhr.url).toBe("/api/admin/voters/import?dryRun=1");
    expect(xhr.headers.Authorization).toBe("Bearer token-123456789012345678901");
    expect((xhr.body!.get("file") as File).name).toBe("roll.csv");
    xhr.progress(0.5);
    // The bar may already be on screen at 0% from the click; wait for the progress event's render.
    expect(await screen.findByText("Uploading file... 50%")).toBeInTheDocument();
    expect(screen.getByRole("progressbar", { name: "Upload progress" })).toHaveAttribute("aria-valuenow", "50");
    xhr.progress(1);
    expect(await screen.findByRole("progressbar", { name: "Checking file..." })).toHaveAttribute("aria-busy", "true");
    xhr.respond(200, report({ created: 2, errors: [{ line: 3, column: "dateOfBirth", message: messages.dobFormat }] }));

    expect(await screen.findByText(messages.dobFormat)).toBeInTheDocument();
    expect(screen.queryByRole("progressbar")).toBeNull();
    // The input is emptied, so picking the same (corrected) file again is a change.
    expect((input as HTMLInputElement).value).toBe("");
    expect(screen.getByRole("button", { name: "Check File" })).toBeDisabled();

    await userEvent.upload(input, csv("good"));
    await userEvent.click(screen.getByRole("button", { name: "Check File" }));
    FakeXhr.last!.respond(200, report({}));
    await userEvent.click(await screen.findByRole("button", { name: "Import 3 voters" }));
    const apply = FakeXhr.last!;
    expect(apply.url).toBe("/api/admin/voters/import?dryRun=0");
    expect(screen.getByRole("button", { name: "Importing..." })).toBeDisabled();
    apply.progress(1);
    // Every byte sent: the bar turns into the server's step.
    expect(await screen.findByRole("progressbar", { name: "Importing voters..." })).toHaveAttribute("aria-busy", "true");
    apply.respond(200, report({ dryRun: false }));
    expect(await screen.findByText(messages.rollImportSuccess)).toBeInTheDocument();
    expect(screen.getByText("Imported 3 rows: 3 new, 0 updated, 0 unchanged.")).toBeInTheDocument();
  });

  test("a refused file (413) shows the server's message", async () => {
    renderRoute(ImportVotersPage, "/admin/voters/import");
    await userEvent.upload(await screen.findByLabelText("CSV File"), csv("big"));
    await userEvent.click(screen.getByRole("button", { name: "Check File" }));
    FakeXhr.last!.respond(413, { message: messages.rollTooLarge });
    expect(await screen.findByText(messages.rollTooLarge)).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole("button", { name: "Check File" })).toBeEnabled());
  });
});
