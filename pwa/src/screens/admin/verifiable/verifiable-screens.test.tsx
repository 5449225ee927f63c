/**
 * The returning officer's and trustees' screens for verifiable positions: the 'Verifiable
 * ballot' box, Trustees (a key made here, only its public half sent), Lock, Credential Authority
 * (only public credentials sent, the slips and CSV) and Decrypt (a real partial decryption whose
 * proofs verify). Real cryptography from the shared library; the API is a stub.
 */
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { messages, type Position, type UserProfile, type VoterListItem } from "@evoting/shared";
import {
  buildArchive,
  electionFingerprint,
  encryptedTally,
  eventRecords,
  generateBallot,
  generateCredential,
  generateUuid,
  parseBallot,
  parseElection,
  parsePartialDecryption,
  parseEncryptedTally,
  parseTrusteeKey,
  publicCredential,
  serializeElection,
  serializeEncryptedTally,
  serializeTrustees,
  setupPayloads,
  sha256Hex,
  verifyPartialDecryption,
  verifyTrusteeKey,
  generateTrusteeKey,
  type ArchiveRecord,
} from "@evoting/shared/belenios";
import { json, mockFetch } from "../../../test/fetch-mock";
import { renderRoute } from "../../../test/render";
import { captureDownloads } from "../../../test/downloads";
import { session } from "../../../auth/session";
import { CreatePositionPage } from "../CreatePositionPage";
import { ManagePositionsPage } from "../ManagePositionsPage";
import { TrusteesPage } from "./TrusteesPage";
import { CredentialAuthorityPage } from "./CredentialAuthorityPage";
import { DecryptPage } from "./DecryptPage";
import { SLIPS_PER_STEP } from "./CredentialSlips";
import { handleCredentialRequest, type CredentialAnswer, type CredentialRequest } from "./credential-worker";
import type { Trustee } from "../../../api/verifiable-admin";
import { navFor } from "../../../components/layout/nav";
import { observerMayOpen, requireAdmin } from "../../../auth/guards";

const admin: UserProfile = { _id: "a1", name: "Ada Officer", role: "admin", matricNumber: "0000/5570000", email: null, hasPassword: true };
const observer: UserProfile = { ...admin, _id: "o1", name: "Olu Agent", role: "observer" };
const wait = { timeout: 8000 };

/** What saveFile handed the browser, by file name. */
let saved: Map<string, Blob>;
beforeEach(() => {
  saved = captureDownloads();
});
afterEach(() => {
  session.clear();
  vi.restoreAllMocks();
});

const position = (p: Partial<Position>): Position => ({
  _id: "p1",
  title: "President",
  startTime: new Date(Date.now() + 3_600_000).toISOString(),
  endTime: new Date(Date.now() + 7_200_000).toISOString(),
  candidates: [],
  ...p,
});

test("the sidebar's 'Election' group holds the three pages; observers (trustees) get Trustees and Decrypt only", () => {
  const election = (role: string) => navFor(role, observerMayOpen).find((g) => g.title === "Election")!.items.map((i) => i.label);
  expect(election("admin")).toEqual(expect.arrayContaining(["Trustees", "Credential Authority", "Decrypt"]));
  expect(election("observer")).toEqual(expect.arrayContaining(["Trustees", "Decrypt"]));
  expect(election("observer")).not.toContain("Credential Authority");
  session.signIn("token-123456789012345678901", observer);
  expect(() => requireAdmin({ location: { pathname: "/admin/decrypt" } })).not.toThrow();
  expect(() => requireAdmin({ location: { pathname: "/admin/credentials" } })).toThrow();
});

describe("Create Positions", () => {
  test("'Verifiable ballot' is off by default, sends verifiable: true when ticked, and says why a ranked position cannot have it", async () => {
    session.signIn("token-123456789012345678901", admin);
    const posts: Record<string, unknown>[] = [];
    mockFetch({
      "POST /api/admin/positions": ({ body }) => {
        posts.push(JSON.parse(String(body)));
        return json({ _id: "p9", message: messages.createPositionSuccess }, 201);
      },
    });
    renderRoute(CreatePositionPage, "/admin/positions");
    const u = userEvent.setup();
    const box = await screen.findByRole("checkbox", { name: "Verifiable ballot" }, wait);
    expect(box).not.toBeChecked();
    await u.selectOptions(screen.getByLabelText("Voting Method"), "ranked");
    expect(box).toBeDisabled();
    expect(box).toHaveAccessibleDescription(/Ranked positions cannot be verifiable yet/);
    await u.selectOptions(screen.getByLabelText("Voting Method"), "referendum");
    expect(box).toBeEnabled();
    await u.click(box);
    const at = (h: number) => {
      const d = new Date(Date.now() + h * 3_600_000);
      const pad = (n: number) => String(n).padStart(2, "0");
      return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
    };
    await u.type(screen.getByLabelText("Position Title"), "Amendment");
    await u.type(screen.getByLabelText("Start Time"), at(1));
    await u.type(screen.getByLabelText("End Time"), at(3));
    await u.type(screen.getByLabelText("Question"), "Amend the constitution?");
    await u.click(screen.getByRole("button", { name: "Create Position" }));
    await waitFor(() => expect(posts).toHaveLength(1));
    expect(posts[0]).toMatchObject({ title: "Amendment", method: "referendum", verifiable: true });
    // The form is reset: off again.
    await waitFor(() => expect(screen.getByRole("checkbox", { name: "Verifiable ballot" })).not.toBeChecked());
  });
});

describe("Edit Position", () => {
  test("a verifiable position in set-up can be turned back; a locked one keeps the box ticked and says why", async () => {
    session.signIn("token-123456789012345678901", admin);
    const patches: Record<string, unknown>[] = [];
    mockFetch({
      "GET /api/admin/positions": () =>
        json([
          position({ belenios: { uuid: "u1", state: "setup" } }),
          position({ _id: "p2", title: "Treasurer", belenios: { uuid: "u2", state: "open" } }),
        ]),
      "PATCH /api/admin/positions/p1": ({ body }) => {
        patches.push(JSON.parse(String(body)));
        return json({ ...position({}), message: messages.updatePositionSuccess });
      },
    });
    renderRoute(ManagePositionsPage, "/admin/manage-positions");
    const u = userEvent.setup();
    await u.click(await screen.findByRole("button", { name: "Edit Treasurer" }, wait));
    let dialog = await screen.findByRole("dialog", { name: "Edit Position" });
    const locked = within(dialog).getByRole("checkbox", { name: "Verifiable ballot" });
    expect(locked).toBeChecked();
    expect(locked).toBeDisabled();
    expect(locked).toHaveAccessibleDescription("Locked: this position stays verifiable.");
    await u.keyboard("{Escape}");
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());

    await u.click(screen.getByRole("button", { name: "Edit President" }));
    dialog = await screen.findByRole("dialog", { name: "Edit Position" });
    const box = within(dialog).getByRole("checkbox", { name: "Verifiable ballot" });
    expect(box).toBeChecked();
    await u.click(box);
    await u.click(within(dialog).getByRole("button", { name: "Save Changes" }));
    await waitFor(() => expect(patches).toHaveLength(1));
    expect(patches[0]).toMatchObject({ verifiable: false });
  });
});

describe("Trustees", () => {
  test("'Generate my key' saves the private key file, registers only the public key, and the server can be added; Lock asks first", async () => {
    session.signIn("token-123456789012345678901", admin);
    let trustees: Trustee[] = [];
    const posts: Record<string, unknown>[] = [];
    const locks: string[] = [];
    let state: "setup" | "open" = "setup";
    mockFetch({
      "GET /api/admin/trustees": () => json(trustees),
      "GET /api/admin/positions": () => json([position({ belenios: { uuid: "u1", state } }), position({ _id: "p2", title: "Plain" })]),
      "POST /api/admin/trustees": ({ body }) => {
        const b = JSON.parse(String(body)) as { name: string; publicKey?: string; server?: boolean };
        posts.push(b);
        const t = { id: trustees.length + 1, name: b.name, server: Boolean(b.server), publicKey: b.publicKey ?? "{}", mine: true };
        trustees = [...trustees, t];
        return json(t, 201);
      },
      "POST /api/admin/positions/p1/lock": () => {
        locks.push("p1");
        state = "open";
        return json({ uuid: "u1", state: "open" });
      },
    });
    renderRoute(TrusteesPage, "/admin/trustees");
    const u = userEvent.setup();
    expect(await screen.findByText("No trustee yet.", {}, wait)).toBeInTheDocument();
    expect(screen.getByText(/never sent to the server/)).toBeInTheDocument();
    expect(screen.getByLabelText("Trustee Name")).toHaveValue("Ada Officer");

    await u.click(screen.getByRole("button", { name: "Generate my key" }));
    expect(await screen.findByText(/Your key is ready/)).toBeInTheDocument();
    const file = saved.get("ada-officer.privkey")!;
    const privateKey = (await file.text()).trim();
    expect(privateKey).toMatch(/^"\d+"$/);
    const register = screen.getByRole("button", { name: "Register my key" });
    expect(register).toBeDisabled(); // until the file is saved
    await u.click(screen.getByRole("checkbox", { name: "I have saved my private key file" }));
    await u.click(register);
    await screen.findByText("Ada Officer is trustee 1");
    expect(posts).toHaveLength(1);
    const sent = posts[0] as { name: string; publicKey: string };
    expect(Object.keys(sent).sort()).toEqual(["name", "publicKey"]);
    expect(sent.name).toBe("Ada Officer");
    expect(JSON.stringify(sent)).not.toContain(privateKey.replace(/"/g, ""));
    // The exact .pubkey line of belenios-tool, with a proof of knowledge that verifies.
    expect(sent.publicKey).toMatch(/^\{"pok":\{"challenge":"\d+","response":"\d+"\},"public_key":"\d+"\}$/);
    expect(verifyTrusteeKey(parseTrusteeKey(sent.publicKey))).toBe(true);
    const list = await screen.findByRole("list", { name: "Trustees" });
    expect(within(list).getByText("Ada Officer")).toBeInTheDocument();

    await u.click(screen.getByRole("button", { name: "Add the server as a trustee" }));
    const dialog = await screen.findByRole("dialog", { name: "Add the Server" });
    await u.click(within(dialog).getByRole("button", { name: "Add" }));
    await screen.findByText("The server is a trustee");
    expect(posts[1]).toEqual({ name: "The server", server: true });
    await waitFor(() => expect(screen.queryByRole("button", { name: "Add the server as a trustee" })).not.toBeInTheDocument());

    // Only the verifiable position is listed, with its state; Lock asks first.
    const row = screen.getByRole("listitem", { name: "President" });
    expect(within(row).getByText("Setup")).toBeInTheDocument();
    expect(screen.queryByRole("listitem", { name: "Plain" })).not.toBeInTheDocument();
    await u.click(within(row).getByRole("button", { name: "Lock President" }));
    const confirm = await screen.findByRole("dialog", { name: "Lock Position" });
    expect(locks).toEqual([]);
    await u.click(within(confirm).getByRole("button", { name: "Lock" }));
    await screen.findByText("President is locked");
    expect(locks).toEqual(["p1"]);
    // Locked: trustees are frozen and no key can be added.
    expect(await screen.findByText("Frozen")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Generate my key" })).not.toBeInTheDocument();
    expect(within(screen.getByRole("listitem", { name: "President" })).getByText("Open")).toBeInTheDocument();
  });

  test("an observer registers their own key once, and cannot add the server or lock", async () => {
    session.signIn("token-123456789012345678901", observer);
    mockFetch({
      "GET /api/admin/trustees": () => json([{ id: 1, name: "Ada Officer", server: false, publicKey: "{}", mine: false }]),
      "GET /api/admin/positions": () => json([position({ belenios: { uuid: "u1", state: "setup" } })]),
    });
    renderRoute(TrusteesPage, "/admin/trustees");
    expect(await screen.findByRole("button", { name: "Generate my key" }, wait)).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Add the server as a trustee" })).not.toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Lock President" })).not.toBeInTheDocument();
  });

  test("a key made with belenios-tool is registered by pasting its .pubkey line; a bad one gets the server's message", async () => {
    session.signIn("token-123456789012345678901", admin);
    const posts: Record<string, unknown>[] = [];
    const toolKey = generateTrusteeKey().publicKey;
    mockFetch({
      "GET /api/admin/trustees": () => json([]),
      "GET /api/admin/positions": () => json([position({ belenios: { uuid: "u1", state: "setup" } })]),
      "POST /api/admin/trustees": ({ body }) => {
        const b = JSON.parse(String(body)) as { name: string; publicKey: string };
        posts.push(b);
        if (!verifyTrusteeKey(parseTrusteeKey(b.publicKey))) return json({ message: "This public key's proof of knowledge does not verify: generate the key again." }, 400);
        return json({ id: 1, name: b.name, server: false, publicKey: b.publicKey, mine: true }, 201);
      },
    });
    renderRoute(TrusteesPage, "/admin/trustees");
    const u = userEvent.setup();
    await u.click(await screen.findByText("Use a key made with belenios-tool", {}, wait));
    await u.click(screen.getByRole("button", { name: "Register this key" }));
    expect(screen.getByText("Paste the line of the .pubkey file.")).toBeInTheDocument();
    expect(posts).toEqual([]);
    await u.type(screen.getByLabelText("Name"), "Bola Agent");
    const forged = toolKey.replace(/"response":"(\d)/, (_m, d: string) => `"response":"${d === "1" ? "2" : "1"}`);
    await u.click(screen.getByLabelText("Public Key"));
    await u.paste(forged);
    await u.click(screen.getByRole("button", { name: "Register this key" }));
    expect(await screen.findByText("This public key's proof of knowledge does not verify: generate the key again.")).toBeInTheDocument();
    await u.clear(screen.getByLabelText("Public Key"));
    await u.click(screen.getByLabelText("Public Key"));
    await u.paste(`${toolKey}\n`);
    await u.click(screen.getByRole("button", { name: "Register this key" }));
    expect(await screen.findByText("Bola Agent is trustee 1")).toBeInTheDocument();
    expect(posts[1]).toEqual({ name: "Bola Agent", publicKey: toolKey });
  });

  test("a failed registration shows the server's message", async () => {
    session.signIn("token-123456789012345678901", observer);
    mockFetch({
      "GET /api/admin/trustees": () => json([]),
      "GET /api/admin/positions": () => json([position({ belenios: { uuid: "u1", state: "setup" } })]),
      "POST /api/admin/trustees": () => json({ message: "You are already a trustee: an observer registers one key." }, 409),
    });
    renderRoute(TrusteesPage, "/admin/trustees");
    const u = userEvent.setup();
    await u.click(await screen.findByRole("button", { name: "Generate my key" }, wait));
    await u.click(screen.getByRole("checkbox", { name: "I have saved my private key file" }));
    await u.click(screen.getByRole("button", { name: "Register my key" }));
    expect(await screen.findByText("You are already a trustee: an observer registers one key.")).toBeInTheDocument();
  });
});

/**
 * The credential worker's module run in this process (jsdom has no Worker), each message
 * structured-cloned as a browser passes it between threads.
 */
class InProcessWorker {
  static made: InProcessWorker[] = [];
  /** QR code requests past this many wait for `release()` (null: none waits). */
  static qrAnswered: number | null = null;
  terminated = false;
  qrRequests = 0;
  private readonly held: (() => void)[] = [];
  private readonly listeners: ((event: { data: CredentialAnswer }) => void)[] = [];
  constructor(
    readonly url: URL | string,
    readonly options?: WorkerOptions,
  ) {
    InProcessWorker.made.push(this);
  }
  addEventListener(type: string, listener: (event: { data: CredentialAnswer }) => void) {
    if (type === "message") this.listeners.push(listener);
  }
  postMessage(request: CredentialRequest) {
    if (request.kind === "qr") this.qrRequests++;
    const answer = () =>
      void handleCredentialRequest(structuredClone(request), (answer) => {
        if (this.terminated) return;
        const data = structuredClone(answer);
        for (const listener of this.listeners) listener({ data });
      });
    if (request.kind === "qr" && InProcessWorker.qrAnswered !== null && this.qrRequests > InProcessWorker.qrAnswered) this.held.push(answer);
    else setTimeout(answer, 0);
  }
  release() {
    InProcessWorker.qrAnswered = null;
    for (const answer of this.held.splice(0)) setTimeout(answer, 0);
  }
  terminate() {
    this.terminated = true;
  }
}

describe("Credential Authority", () => {
  beforeEach(() => {
    InProcessWorker.made = [];
    InProcessWorker.qrAnswered = null;
    vi.stubGlobal("Worker", InProcessWorker);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  test("makes a credential per eligible voter here, uploads only the public ones, and shows the slips and CSV", async () => {
    session.signIn("token-123456789012345678901", admin);
    const voter = (n: number, groups: string[]): VoterListItem => ({
      _id: `v${n}`,
      name: `Voter ${n}`,
      matricNumber: `2020/557000${n}`,
      email: n === 1 ? "v1@uniport.edu.ng" : null,
      groups,
      hasPassword: false,
      hasVoted: false,
    });
    const voters = [voter(1, ["300L"]), voter(2, ["400L"]), voter(3, [])];
    const puts = new Map<string, string[]>();
    const bodies: string[] = [];
    mockFetch({
      "GET /api/election": () => json({ title: "SUG Election 2026", subtitle: "", startTime: "", endTime: "", resultsVisibility: "live", ballotOrder: "fixed" }),
      "GET /api/admin/positions": () =>
        json([
          position({ belenios: { uuid: "uuidPresident1", state: "setup" } }),
          position({ _id: "p2", title: "Class Rep", eligibleGroups: ["300L"], belenios: { uuid: "uuidClassRep22", state: "setup" } }),
          position({ _id: "p3", title: "Treasurer", belenios: { uuid: "uuidTreasurer3", state: "open" } }),
        ]),
      "GET /api/admin/voters": ({ url }) => {
        expect(new URL(url, "http://x").searchParams.get("pageSize")).toBe("200");
        return json({ items: voters, total: 3, page: 1, pageSize: 200 });
      },
      "PUT /api/admin/positions/p1/credentials": ({ body }) => {
        bodies.push(String(body));
        puts.set("p1", (JSON.parse(String(body)) as { publicCredentials: string[] }).publicCredentials);
        return json({ count: 3 });
      },
      "PUT /api/admin/positions/p2/credentials": ({ body }) => {
        bodies.push(String(body));
        puts.set("p2", (JSON.parse(String(body)) as { publicCredentials: string[] }).publicCredentials);
        return json({ count: 1 });
      },
    });
    renderRoute(CredentialAuthorityPage, "/admin/credentials");
    const u = userEvent.setup();
    expect(await screen.findByText(/No private credential ever reaches the server/, {}, wait)).toBeInTheDocument();
    expect(screen.getByText(/Keep the sheet and the CSV safe until the count/)).toBeInTheDocument();
    expect(await screen.findByText("Locked: its credentials are final")).toBeInTheDocument();
    await u.click(screen.getByRole("button", { name: "Generate credentials" }));
    const dialog = await screen.findByRole("dialog", { name: "Generate Credentials" });
    expect(dialog).toHaveTextContent("for President, Class Rep?");
    await u.click(within(dialog).getByRole("button", { name: "Generate" }));

    const slips = await screen.findByRole("list", { name: "Credential slips" }, wait);
    await waitFor(() => expect(within(slips).getAllByTestId("slip-credential")).toHaveLength(3), wait);
    const credentials = within(slips).getAllByTestId("slip-credential").map((e) => e.textContent!);
    expect(credentials).toHaveLength(3);
    expect(new Set(credentials).size).toBe(3);
    // President: everyone; Class Rep: 300L only. Each public credential is the slip's, derived for that uuid.
    expect(new Set(puts.get("p1"))).toEqual(new Set(credentials.map((c) => publicCredential(c, "uuidPresident1"))));
    expect(puts.get("p2")).toEqual([publicCredential(credentials[0], "uuidClassRep22")]);
    expect(puts.has("p3")).toBe(false);
    for (const c of credentials) expect(bodies.join()).not.toContain(c);
    expect(within(slips).getByText("Voter 1")).toBeInTheDocument();
    expect(within(slips).getByText("2020/5570002")).toBeInTheDocument();
    expect(within(slips).getAllByText("SUG Election 2026")).toHaveLength(3);
    expect(within(slips).getByText(/For: President, Class Rep\./)).toBeInTheDocument();
    // QR codes, drawn by the library loaded on this page.
    await waitFor(() => expect(within(slips).getAllByRole("img")).toHaveLength(3), wait);
    expect(within(slips).getByRole("img", { name: "QR code of Voter 1's credential" }).getAttribute("src")).toMatch(/^data:image\/svg\+xml/);

    await u.click(screen.getByRole("button", { name: "Download CSV" }));
    const csv = await saved.get("credentials.csv")!.text();
    expect(csv.split("\r\n")[0]).toBe("matricNumber,name,email,credential,positions");
    expect(csv).toContain(`2020/5570001,Voter 1,v1@uniport.edu.ng,${credentials[0]},President; Class Rep`);
    expect(csv).toContain(`2020/5570003,Voter 3,,${credentials[2]},President`);
    const print = vi.spyOn(window, "print").mockImplementation(() => {});
    await u.click(screen.getByRole("button", { name: "Print slips" }));
    expect(print).toHaveBeenCalled();
    expect(document.body.dataset.print).toBe("slips");
    // The arithmetic and the QR codes ran in the page's one worker, a module of its own.
    expect(InProcessWorker.made).toHaveLength(1);
    expect(String(InProcessWorker.made[0].url)).toMatch(/\/credential-worker\.ts(\?|$)/);
    expect(InProcessWorker.made[0].options).toMatchObject({ type: "module" });
  });

  test("a long roll: the sheet grows step by step, 'Print slips' waits for the last slip, and leaving the page ends the worker", async () => {
    session.signIn("token-123456789012345678901", admin);
    const count = 2 * SLIPS_PER_STEP + 7;
    const roll = Array.from({ length: count }, (_, i): VoterListItem => ({
      _id: `v${i}`,
      name: `Voter ${i}`,
      matricNumber: `2020/55${String(i).padStart(5, "0")}`,
      email: null,
      groups: [],
      hasPassword: false,
      hasVoted: false,
    }));
    const uploaded: string[] = [];
    mockFetch({
      "GET /api/election": () => json({ title: "E" }),
      "GET /api/admin/positions": () => json([position({ belenios: { uuid: "uuidPresident1", state: "setup" } })]),
      "GET /api/admin/voters": () => json({ items: roll, total: count, page: 1, pageSize: 200 }),
      "PUT /api/admin/positions/p1/credentials": ({ body }) => {
        uploaded.push(...(JSON.parse(String(body)) as { publicCredentials: string[] }).publicCredentials);
        return json({ count });
      },
    });
    InProcessWorker.qrAnswered = 1;
    const { unmount } = renderRoute(CredentialAuthorityPage, "/admin/credentials");
    const u = userEvent.setup();
    await u.click(await screen.findByRole("button", { name: "Generate credentials" }, wait));
    await u.click(within(await screen.findByRole("dialog")).getByRole("button", { name: "Generate" }));
    const slips = await screen.findByRole("list", { name: "Credential slips" }, { timeout: 30_000 });
    expect(uploaded).toHaveLength(count);
    // The first step on the sheet, with the progress; printing waits for the rest.
    await waitFor(() => expect(within(slips).getAllByRole("listitem")).toHaveLength(SLIPS_PER_STEP), wait);
    expect(screen.getByText(`Drawing slips: ${SLIPS_PER_STEP} of ${count}. 'Print slips' is ready once all are drawn.`)).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Print slips" })).toBeDisabled();
    expect(screen.getByRole("progressbar", { name: "Drawing slips" })).toBeInTheDocument();
    InProcessWorker.made[0].release();
    await waitFor(() => expect(within(slips).getAllByRole("listitem")).toHaveLength(count), { timeout: 30_000 });
    await waitFor(() => expect(within(slips).getAllByRole("img")).toHaveLength(count), wait);
    expect(screen.getByRole("button", { name: "Print slips" })).toBeEnabled();
    expect(screen.getByText(`All ${count} slips are drawn.`)).toBeInTheDocument();
    expect(screen.queryByRole("progressbar", { name: "Drawing slips" })).not.toBeInTheDocument();
    const worker = InProcessWorker.made[0];
    expect(worker.qrRequests).toBe(Math.ceil(count / SLIPS_PER_STEP));
    unmount();
    expect(worker.terminated).toBe(true);
  }, 60_000);

  test("the worker answers with its progress, then the run", async () => {
    const answers: CredentialAnswer[] = [];
    await handleCredentialRequest(
      {
        id: 7,
        kind: "credentials",
        voters: [
          { name: "A", matricNumber: "2020/5570001", email: null, groups: ["300L"] },
          { name: "B", matricNumber: "2020/5570002", email: null, groups: [] },
        ],
        positions: [{ id: "p2", uuid: "uuidClassRep22", title: "Class Rep", eligibleGroups: ["300L"] }],
      },
      (a) => answers.push(a),
    );
    expect(answers.at(-2)).toEqual({ id: 7, kind: "progress", done: 2, total: 2 });
    const last = answers.at(-1)!;
    expect(last.kind).toBe("credentials");
    const run = (last as Extract<CredentialAnswer, { kind: "credentials" }>).run;
    expect(run.slips.map((s) => s.name)).toEqual(["A"]);
    expect(run.publicCredentials.get("p2")).toEqual([publicCredential(run.slips[0].credential, "uuidClassRep22")]);
  });

  test("a refused upload says why", async () => {
    session.signIn("token-123456789012345678901", admin);
    mockFetch({
      "GET /api/election": () => json({ title: "E" }),
      "GET /api/admin/positions": () => json([position({ belenios: { uuid: "uuidPresident1", state: "setup" } })]),
      "GET /api/admin/voters": () => json({ items: [{ _id: "v1", name: "V", matricNumber: "2020/5570001", email: null, groups: [], hasPassword: false, hasVoted: false }], total: 1, page: 1, pageSize: 200 }),
      "PUT /api/admin/positions/p1/credentials": () => json({ message: "This verifiable position is locked: its candidates, trustees and credentials can no longer change." }, 409),
    });
    renderRoute(CredentialAuthorityPage, "/admin/credentials");
    const u = userEvent.setup();
    await u.click(await screen.findByRole("button", { name: "Generate credentials" }, wait));
    await u.click(within(await screen.findByRole("dialog")).getByRole("button", { name: "Generate" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("This verifiable position is locked");
    expect(screen.queryByRole("list", { name: "Credential slips" })).not.toBeInTheDocument();
  });
});

describe("Decrypt", () => {
  /** A tallied archive of one ballot for a trustee's key, as the server serves it. */
  function talliedArchive(publicKeyLine: string) {
    const uuid = generateUuid();
    const key = parseTrusteeKey(publicKeyLine);
    const electionJson = serializeElection({
      uuid,
      name: "President",
      description: "CSC E-Voting: President",
      publicKey: key.publicKey,
      question: { answers: ["Ada", "Bo"], blank: false, min: 1, max: 1, question: "President" },
    });
    const election = parseElection(electionJson);
    const credential = generateCredential();
    const ballot = generateBallot(electionJson, election, electionFingerprint(electionJson), credential, { selected: [1] });
    const tallyJson = serializeEncryptedTally(encryptedTally([parseBallot(ballot)], 2));
    const records: ArchiveRecord[] = [];
    const add = (type: Parameters<typeof eventRecords>[1], payloads: string[]) => {
      const last = [...records].reverse().find((r) => r.kind === "event");
      const height = last ? (JSON.parse(last.content) as { height: number }).height : 0;
      records.push(...eventRecords(last ? { hash: last.hash, height } : null, type, payloads));
    };
    add("Setup", setupPayloads(electionJson, serializeTrustees([key]), JSON.stringify([publicCredential(credential, uuid)])));
    add("Ballot", [ballot]);
    add("EndBallots", []);
    add("EncryptedTally", [tallyJson, JSON.stringify({ num_tallied: 1, total_weight: 1, encrypted_tally: sha256Hex(tallyJson) })]);
    return { bytes: buildArchive(1_700_000_000, records), electionJson, tallyJson };
  }

  test("loads the key file here, submits a partial decryption whose proofs verify, and shows the verdict", async () => {
    session.signIn("token-123456789012345678901", observer);
    const mine = generateTrusteeKey();
    const other = generateTrusteeKey();
    const trustees: Trustee[] = [
      { id: 1, name: "Ada Officer", server: false, publicKey: other.publicKey, mine: false },
      { id: 2, name: "Olu Agent", server: false, publicKey: mine.publicKey, mine: true },
    ];
    const archive = talliedArchive(mine.publicKey);
    const submitted: { trusteeId: number; partialDecryption: string }[] = [];
    let state: "tallying" | "decrypted" = "tallying";
    mockFetch({
      "GET /api/admin/trustees": () => json(trustees),
      "GET /api/admin/positions": () =>
        json([
          position({ belenios: { uuid: "u1", state } }),
          position({ _id: "p2", title: "Treasurer", belenios: { uuid: "u2", state: "open" } }),
          position({ _id: "p3", title: "Later", belenios: { uuid: "u3", state: "setup" } }),
        ]),
      "GET /api/positions/p1/archive.bel": () => new Response(archive.bytes as Uint8Array<ArrayBuffer>, { status: 200 }),
      "GET /api/positions/p2/archive.bel": () => new Response(talliedArchive(other.publicKey).bytes.slice(0, 512 * 8) as Uint8Array<ArrayBuffer>, { status: 200 }),
      "POST /api/admin/positions/p1/partial-decryptions": ({ body }) => {
        const b = JSON.parse(String(body)) as { trusteeId: number; partialDecryption: string };
        submitted.push(b);
        state = "decrypted";
        return json({ remaining: 0 }, 201);
      },
    });
    renderRoute(DecryptPage, "/admin/decrypt");
    const u = userEvent.setup();
    expect(await screen.findByText(/your private key is never sent to the server/, {}, wait)).toBeInTheDocument();
    expect(screen.queryByRole("listitem", { name: "Later" })).not.toBeInTheDocument();
    const input = screen.getByLabelText("Private Key File");
    await waitFor(() => expect(input).toBeEnabled());

    // Someone else's file, then a file that is not a key.
    await u.upload(input, new File([`${other.privateKey}\n`], "ada.privkey"));
    expect(await screen.findByText("This is the key of trustee 1, Ada Officer.")).toBeInTheDocument();
    await u.upload(input, new File(["hello"], "notes.privkey"));
    expect(await screen.findByText("This file is not a private key file.")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Decrypt" })).toBeDisabled();

    await u.upload(input, new File([`${mine.privateKey}\n`], "olu.privkey"));
    expect(await screen.findByText("This is the key of trustee 2, Olu Agent.")).toBeInTheDocument();
    await u.click(screen.getByRole("button", { name: "Decrypt" }));
    const president = screen.getByRole("listitem", { name: "President" });
    expect(await within(president).findByText("Accepted: every trustee has decrypted, the result is in.", {}, wait)).toBeInTheDocument();
    expect(await within(screen.getByRole("listitem", { name: "Treasurer" })).findByText(/Not yet: the tally comes after voting closes/)).toBeInTheDocument();
    expect(submitted).toHaveLength(1);
    expect(submitted[0].trusteeId).toBe(2);
    expect(submitted[0].partialDecryption).not.toContain(mine.privateKey.replace(/"/g, ""));
    const pd = parsePartialDecryption(submitted[0].partialDecryption);
    expect(pd.owner).toBe(2);
    expect(verifyPartialDecryption(electionFingerprint(archive.electionJson), parseTrusteeKey(mine.publicKey), parseEncryptedTally(archive.tallyJson), pd)).toBe(true);
    expect(await screen.findByText("1 partial decryption accepted")).toBeInTheDocument();
  });

  test("the server's refusal is shown for the position", async () => {
    session.signIn("token-123456789012345678901", admin);
    const mine = generateTrusteeKey();
    const archive = talliedArchive(mine.publicKey);
    mockFetch({
      "GET /api/admin/trustees": () => json([{ id: 1, name: "Ada Officer", server: false, publicKey: mine.publicKey, mine: true }]),
      "GET /api/admin/positions": () => json([position({ belenios: { uuid: "u1", state: "tallying" } })]),
      "GET /api/positions/p1/archive.bel": () => new Response(archive.bytes as Uint8Array<ArrayBuffer>, { status: 200 }),
      "POST /api/admin/positions/p1/partial-decryptions": () => json({ message: "This partial decryption's proofs do not verify with that trustee's key." }, 400),
    });
    renderRoute(DecryptPage, "/admin/decrypt");
    const u = userEvent.setup();
    const input = await screen.findByLabelText("Private Key File", {}, wait);
    await waitFor(() => expect(input).toBeEnabled());
    await u.upload(input, new File([mine.privateKey], "k.privkey"));
    await u.click(await screen.findByRole("button", { name: "Decrypt" }));
    expect(await within(screen.getByRole("listitem", { name: "President" })).findByRole("alert", {}, wait)).toHaveTextContent("proofs do not verify");
  });
});
