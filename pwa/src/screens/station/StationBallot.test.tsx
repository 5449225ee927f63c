import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, test, vi } from "vitest";
import { messages, seededBallotOrder, type BallotPosition, type ElectionSettings, type RollEntry, type StationChoice } from "@evoting/shared";
import {
  ballotTracker,
  computePartialDecryption,
  credentialEntry,
  computeResult,
  electionFingerprint,
  encryptedTally,
  generateCredential,
  generateTrusteeKey,
  parseBallot,
  parseElection,
  parsePrivateKey,
  parseTrusteeKey,
  publicCredential,
  serializeElection,
  verifyBallot,
} from "@evoting/shared/belenios";
import type { DevicePackage } from "../../station/station-api";
import { ballotFor, ballotOrderSeedOf } from "../../station/station-device";
import { verifiableText } from "../../verifiable/messages";
import { StationBallot, type BoothTracker } from "./StationBallot";
import { StationLookup } from "./StationLookup";
import { BoothTrackers } from "./BoothTrackers";
import { boothText } from "./booth-text";

// The station's worker runs the phone's own code; here it runs in this thread.
vi.mock("../../verifiable/encrypt", () => ({
  prewarmBallotWorker: () => undefined,
  encryptBallot: async (election: string, credential: string, choice: unknown) =>
    (await import("../../verifiable/ballot-worker")).buildBallot({ election, credential, choice: choice as never }),
  credentialListed: async (credential: string, uuid: string, list: string) => (await import("../../verifiable/ballot-worker")).isListed({ credential, uuid, list }),
}));

const NOW = Date.parse("2026-03-10T12:00:00.000Z");
const candidate = (id: string, name: string, positionId: string) => ({
  _id: id,
  name,
  photo: null,
  position: { _id: positionId, title: positionId },
  positionId,
  positionTitle: positionId,
});
const open = { startTime: "2026-03-10T09:00:00.000Z", endTime: "2026-03-10T15:00:00.000Z" };
const positions: BallotPosition[] = [
  { _id: "president", title: "President", ...open, candidates: [candidate("c1", "Amaka Nwosu", "president"), candidate("c2", "Tunde Bakare", "president")] },
  { _id: "secretary", title: "Secretary", ...open, candidates: [candidate("c3", "Kemi Ade", "secretary"), candidate("c4", "Obi Nnamdi", "secretary")] },
  { _id: "year-rep", title: "300L Rep", ...open, eligibleGroups: ["300L"], candidates: [candidate("c5", "Ife", "year-rep")] },
];
const voter: RollEntry = { _id: "v1", matricNumber: "2021/5570301", name: "Zainab Musa", groups: ["200L"], voted: ["secretary"] };
const other: RollEntry = { _id: "v2", matricNumber: "2021/5570302", name: "Emeka Obi", groups: ["300L"], voted: [] };

describe("station ballot", () => {
  test("offers only what the voter may still vote for here", () => {
    expect(ballotFor(voter, positions, NOW).map((p) => p._id)).toEqual(["president"]);
    expect(ballotFor(other, positions, NOW).map((p) => p._id)).toEqual(["president", "secretary", "year-rep"]);
    expect(ballotFor(other, positions, Date.parse(open.endTime) + 1)).toEqual([]);
  });

  test("the voter chooses on the vote cards, then confirms once; the choices go to the submit only", async () => {
    const onSubmit = vi.fn(async () => undefined);
    render(<StationBallot voter={other} positions={ballotFor(other, positions, NOW).slice(0, 2)} alreadyVoted={[]} now={NOW} onSubmit={onSubmit} onCancel={() => undefined} />);
    const user = userEvent.setup();
    expect(screen.getByRole("button", { name: "Confirm ballot" })).toBeDisabled();
    await user.click(screen.getByRole("radio", { name: "Tunde Bakare" }));
    await user.click(screen.getByRole("radio", { name: "Obi Nnamdi" }));
    await user.click(screen.getByRole("button", { name: "Confirm ballot" }));
    expect(screen.getByText(/Submit this ballot \(2 of 2 positions\)/)).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Submit ballot" }));
    expect(onSubmit).toHaveBeenCalledWith([
      { positionId: "president", kind: "candidate", candidateId: "c2" },
      { positionId: "secretary", kind: "candidate", candidateId: "c4" },
    ], []);
  });

  test("Yes/No on an unopposed position and Abstain where allowed, as on the vote page", async () => {
    const onSubmit = vi.fn(async () => undefined);
    const ballot = [
      { ...positions[2], _id: "treasurer", title: "Treasurer", eligibleGroups: [], yesNo: true },
      { ...positions[0], allowAbstain: true },
    ];
    render(<StationBallot voter={voter} positions={ballot} alreadyVoted={["Secretary"]} now={NOW} onSubmit={onSubmit} onCancel={() => undefined} />);
    const user = userEvent.setup();
    expect(screen.getByText("Already voted: Secretary")).toBeInTheDocument();
    await user.click(screen.getByRole("radio", { name: "No" }));
    await user.click(screen.getByRole("radio", { name: "Abstain" }));
    await user.click(screen.getByRole("button", { name: "Confirm ballot" }));
    await user.click(screen.getByRole("button", { name: "Submit ballot" }));
    expect(onSubmit).toHaveBeenCalledWith([
      { positionId: "treasurer", kind: "no" },
      { positionId: "president", kind: "abstain" },
    ], []);
  });

  test("ranked, several-seat and referendum positions: their own controls, each listed at the confirmation, sealed as their kind", async () => {
    const onSubmit = vi.fn(async () => undefined);
    const people = (id: string) => ["Ada", "Grace", "Linus"].map((n, i) => candidate(`${id}-${i}`, n, id));
    const ballot: BallotPosition[] = [
      { _id: "chair", title: "Chair", ...open, method: "ranked", seats: 1, candidates: people("chair") },
      { _id: "reps", title: "Reps", ...open, method: "multi", seats: 2, candidates: people("reps") },
      { _id: "amend", title: "Amendment", ...open, method: "referendum", question: "Amend article 4?", candidates: [] },
    ];
    render(<StationBallot voter={other} positions={ballot} alreadyVoted={[]} now={NOW} onSubmit={onSubmit} onCancel={() => undefined} />);
    const user = userEvent.setup();
    const chair = screen.getByRole("form", { name: "Chair" });
    await user.selectOptions(within(chair).getByRole("combobox", { name: "Rank for Linus" }), "1st choice");
    await user.selectOptions(within(chair).getByRole("combobox", { name: "Rank for Ada" }), "2nd choice");
    expect(within(chair).getByText("Selected: 1. Linus, 2. Ada")).toBeInTheDocument();
    const reps = screen.getByRole("form", { name: "Reps" });
    await user.click(within(reps).getByRole("checkbox", { name: "Grace" }));
    await user.click(within(reps).getByRole("checkbox", { name: "Ada" }));
    await user.click(screen.getByRole("radio", { name: "No" }));
    await user.click(screen.getByRole("button", { name: "Confirm ballot" }));
    const list = screen.getByRole("list", { name: "This ballot" });
    expect(within(list).getAllByRole("listitem").map((li) => li.textContent)).toEqual(["Chair: 1. Linus, 2. Ada", "Reps: Grace, Ada", "Amendment: No"]);
    await user.click(screen.getByRole("button", { name: "Submit ballot" }));
    expect(onSubmit).toHaveBeenCalledWith([
      { positionId: "chair", kind: "ranked", candidateIds: ["chair-2", "chair-0"] },
      { positionId: "reps", kind: "multi", candidateIds: ["reps-1", "reps-0"] },
      { positionId: "amend", kind: "no" },
    ], []);
  });

  test("a chosen card says 'Selected', never that the vote is recorded, and can be changed or cleared until the ballot is confirmed", async () => {
    const onSubmit = vi.fn(async () => undefined);
    const ballot = [
      { ...positions[2], _id: "treasurer", title: "Treasurer", eligibleGroups: [], yesNo: true },
      { ...positions[0], allowAbstain: true },
      positions[1],
    ];
    render(<StationBallot voter={other} positions={ballot} alreadyVoted={[]} now={NOW} onSubmit={onSubmit} onCancel={() => undefined} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole("radio", { name: "No" }));
    await user.click(screen.getByRole("radio", { name: "Amaka Nwosu" }));
    await user.click(screen.getByRole("radio", { name: "Kemi Ade" }));
    expect(screen.queryByText(/has been recorded/)).not.toBeInTheDocument();
    expect(screen.getAllByText(messages.stationSelectionNote)).toHaveLength(3);
    expect(screen.queryByRole("button", { name: "Cast Vote" })).not.toBeInTheDocument();
    expect(screen.getByText("Selected: No")).toBeInTheDocument();
    expect(screen.getByText("Selected: Amaka Nwosu")).toBeInTheDocument();
    // Changing is choosing again; clearing leaves the position out of the ballot.
    await user.click(screen.getByRole("radio", { name: "Abstain" }));
    expect(screen.getByText("Selected: Abstain")).toBeInTheDocument();
    expect(screen.queryByText("Selected: Amaka Nwosu")).not.toBeInTheDocument();
    await user.click(screen.getAllByRole("button", { name: "Clear selection" })[2]);
    expect(screen.queryByText("Selected: Kemi Ade")).not.toBeInTheDocument();
    expect(screen.getByRole("radio", { name: "Kemi Ade" })).not.toBeChecked();
    await user.click(screen.getByRole("button", { name: "Confirm ballot" }));
    await user.click(screen.getByRole("button", { name: "Submit ballot" }));
    expect(onSubmit).toHaveBeenCalledWith([
      { positionId: "treasurer", kind: "no" },
      { positionId: "president", kind: "abstain" },
    ], []);
  });

  test("'random' ballot order: each voter sees their own stable order, from the package's seed; 'fixed' keeps creation order", () => {
    const names = ["Ada", "Bola", "Chidi", "Dayo", "Efe"];
    const race: BallotPosition = { _id: "president", title: "President", ...open, candidates: names.map((n, i) => candidate(`c${i}`, n, "president")) };
    const pkg = (ballotOrder: ElectionSettings["ballotOrder"]) =>
      ({ positions: [race], election: { ballotOrder } as ElectionSettings, ballotOrderSeed: "a1b2c3" }) as DevicePackage;
    const voters = Array.from({ length: 8 }, (_, i): RollEntry => ({ ...other, _id: `voter-${i}` }));
    const shown = (v: RollEntry, p: DevicePackage) => {
      const { unmount } = render(
        <StationBallot voter={v} positions={ballotFor(v, p.positions, NOW, ballotOrderSeedOf(p))} alreadyVoted={[]} now={NOW} onSubmit={async () => undefined} onCancel={() => undefined} />,
      );
      const order = screen.getAllByRole("radio").map((r) => r.closest("label")?.textContent);
      unmount();
      return order;
    };
    const random = voters.map((v) => shown(v, pkg("random")));
    voters.forEach((v, i) => expect(random[i]).toEqual(seededBallotOrder([race], "a1b2c3", v._id)[0].candidates.map((c) => c.name)));
    expect(shown(voters[0], pkg("random"))).toEqual(random[0]);
    expect(new Set(random.map((o) => o.join())).size).toBeGreaterThan(1);
    expect(random.some((o) => o.join() !== names.join())).toBe(true);
    for (const v of voters) expect(shown(v, pkg("fixed"))).toEqual(names);
  });

  test("look-up by matric or name; a voter served here cannot start a second ballot", async () => {
    const onStart = vi.fn();
    render(<StationLookup roll={[voter, other]} positions={positions} served={new Set(["v2"])} now={NOW} onStart={onStart} />);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText("Matric number or name"), "emeka");
    expect(screen.getByRole("button", { name: "Start ballot for Emeka Obi" })).toBeDisabled();
    expect(screen.getByText("This voter has already voted at this station")).toBeInTheDocument();
    await user.clear(screen.getByLabelText("Matric number or name"));
    await user.type(screen.getByLabelText("Matric number or name"), "2021/5570301");
    expect(screen.getByText("Already voted: Secretary")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Start ballot for Zainab Musa" }));
    expect(onStart).toHaveBeenCalledWith(voter);
  });
});

describe("a verifiable position at the booth", () => {
  /** Secretary made verifiable and locked: the election as the station's package holds it (answers in the server's order). */
  function verifiableBallot() {
    const key = generateTrusteeKey();
    const election = serializeElection({
      uuid: "AbCdEfGhJkLmNp",
      name: "Secretary",
      description: "",
      publicKey: parseTrusteeKey(key.publicKey).publicKey,
      question: { answers: ["Obi Nnamdi", "Kemi Ade"], blank: false, min: 1, max: 1, question: "Secretary" },
    });
    const list = positions.map((p) =>
      p._id === "secretary" ? { ...p, belenios: { uuid: "AbCdEfGhJkLmNp", state: "open" as const, election, answerIds: ["c4", "c3"] } } : p,
    );
    return { election, key, list: ballotFor(other, list, NOW).slice(0, 2) };
  }

  test("the credential typed at the confirmation encrypts that choice here: a mistyped one is refused and nothing is saved; only the ballot goes, with its tracker", async () => {
    const { election, key, list } = verifiableBallot();
    const onSubmit = vi.fn<(choices: StationChoice[], trackers: BoothTracker[]) => Promise<void>>(async () => undefined);
    render(<StationBallot voter={other} positions={list} alreadyVoted={[]} now={NOW} onSubmit={onSubmit} onCancel={() => undefined} />);
    const user = userEvent.setup();
    const secretary = screen.getByRole("form", { name: "Secretary" });
    expect(within(secretary).getByText(boothText.verifiableNote)).toBeInTheDocument();
    await user.click(screen.getByRole("radio", { name: "Tunde Bakare" }));
    await user.click(within(secretary).getByRole("radio", { name: "Kemi Ade" }));
    // No credential asked before the confirmation, nor kept anywhere on the cards.
    expect(screen.queryByLabelText(verifiableText.credentialLabel)).toBeNull();
    await user.click(screen.getByRole("button", { name: "Confirm ballot" }));
    const field = screen.getByLabelText(verifiableText.credentialLabel);
    expect(field).toHaveFocus();
    expect(screen.getByText(boothText.credentialHint)).toBeInTheDocument();

    await user.click(screen.getByRole("button", { name: "Submit ballot" }));
    expect(await screen.findByText(verifiableText.credentialMissing)).toBeInTheDocument();
    const credential = generateCredential();
    await user.type(field, `${credential.slice(0, -1)}${credential.endsWith("2") ? "3" : "2"}`);
    await user.click(screen.getByRole("button", { name: "Submit ballot" }));
    expect(await screen.findByText(verifiableText.credentialInvalid)).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();

    await user.clear(field);
    await user.type(field, credential.replace(/-/g, ""));
    await user.click(screen.getByRole("button", { name: "Submit ballot" }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1), { timeout: 10_000 });
    const [choices, trackers] = onSubmit.mock.calls[0];
    expect(choices[0]).toEqual({ positionId: "president", kind: "candidate", candidateId: "c2" });
    // The verifiable choice leaves only as its encrypted ballot: no candidate id, no credential.
    expect(Object.keys(choices[1]).sort()).toEqual(["ballot", "kind", "positionId"]);
    expect(choices[1]).toMatchObject({ positionId: "secretary", kind: "belenios" });
    expect(JSON.stringify(choices)).not.toMatch(/c3|c4|Kemi/);
    expect(JSON.stringify(choices)).not.toContain(credential);
    const ballot = choices[1].ballot!;
    const verdict = verifyBallot(ballot, parseElection(election), electionFingerprint(election));
    expect(verdict.ok).toBe(true);
    expect(trackers).toEqual([{ positionId: "secretary", title: "Secretary", tracker: ballotTracker(ballot) }]);
    // Decrypted with the trustee's key, it says Kemi Ade: the locked ballot's second answer.
    const fingerprint = electionFingerprint(election);
    const tally = encryptedTally([parseBallot(ballot)], 2);
    const partial = computePartialDecryption(fingerprint, parsePrivateKey(key.privateKey), parseTrusteeKey(key.publicKey).publicKey, tally);
    expect(computeResult(tally, [partial], 1)).toEqual([0, 1]);
    // The typed credential is cleared once the ballot is made.
    expect(screen.getByLabelText(verifiableText.credentialLabel)).toHaveValue("");
  });

  test("a well-formed credential that is not on the position's list is refused at the booth, nothing submitted; the voter's own is then taken", async () => {
    const { election, list } = verifiableBallot();
    const own = generateCredential();
    // The station's copy of Secretary's list: the voter's public credential among others, as the server packs it.
    const listed = [own, generateCredential(), generateCredential()].map((c) => credentialEntry(publicCredential(c, "AbCdEfGhJkLmNp")));
    const onSubmit = vi.fn<(choices: StationChoice[], trackers: BoothTracker[]) => Promise<void>>(async () => undefined);
    render(
      <StationBallot voter={other} positions={list} alreadyVoted={[]} now={NOW} credentialLists={{ secretary: listed.sort().join("") }} onSubmit={onSubmit} onCancel={() => undefined} />,
    );
    const user = userEvent.setup();
    await user.click(within(screen.getByRole("form", { name: "Secretary" })).getByRole("radio", { name: "Kemi Ade" }));
    await user.click(screen.getByRole("button", { name: "Confirm ballot" }));
    const field = screen.getByLabelText(verifiableText.credentialLabel);
    // A slip from another election: well-formed (its checksum holds), not on this list.
    await user.type(field, generateCredential());
    await user.click(screen.getByRole("button", { name: "Submit ballot" }));
    expect(await screen.findByText(boothText.credentialUnlisted("Secretary"), {}, { timeout: 10_000 })).toBeInTheDocument();
    expect(field).toHaveAttribute("aria-invalid", "true");
    await waitFor(() => expect(field).toHaveFocus());
    expect(onSubmit).not.toHaveBeenCalled();
    // Still at the confirmation, the choice kept: the voter types the credential from their own slip.
    await user.clear(field);
    expect(screen.queryByText(boothText.credentialUnlisted("Secretary"))).toBeNull();
    await user.type(field, own);
    await user.click(screen.getByRole("button", { name: "Submit ballot" }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1), { timeout: 10_000 });
    const [choices] = onSubmit.mock.calls[0];
    expect(choices).toHaveLength(1);
    expect(verifyBallot(choices[0].ballot!, parseElection(election), electionFingerprint(election)).ok).toBe(true);
  });

  test("a ballot of ordinary choices asks for no credential", async () => {
    const { list } = verifiableBallot();
    const onSubmit = vi.fn(async () => undefined);
    render(<StationBallot voter={other} positions={list} alreadyVoted={[]} now={NOW} onSubmit={onSubmit} onCancel={() => undefined} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole("radio", { name: "Amaka Nwosu" }));
    await user.click(screen.getByRole("button", { name: "Confirm ballot" }));
    expect(screen.queryByLabelText(verifiableText.credentialLabel)).toBeNull();
    await user.click(screen.getByRole("button", { name: "Submit ballot" }));
    expect(onSubmit).toHaveBeenCalledWith([{ positionId: "president", kind: "candidate", candidateId: "c1" }], []);
  });

  test("a verifiable position the station's data holds unlocked says so and offers no choice", () => {
    const list = positions.map((p) => (p._id === "secretary" ? { ...p, belenios: { uuid: "AbCdEfGhJkLmNp", state: "setup" as const } } : p));
    render(<StationBallot voter={other} positions={ballotFor(other, list, NOW).slice(0, 2)} alreadyVoted={[]} now={NOW} onSubmit={vi.fn()} onCancel={() => undefined} />);
    expect(within(screen.getByTestId("station-verifiable-not-ready")).getByText(boothText.notReady)).toBeInTheDocument();
    expect(screen.queryByRole("radio", { name: "Kemi Ade" })).toBeNull();
  });

  test("the trackers are shown to the voter to note, with no link away from the booth", () => {
    render(<BoothTrackers trackers={[{ positionId: "secretary", title: "Secretary", tracker: "abcDEF123+/xyz" }]} />);
    expect(screen.getByRole("heading", { name: boothText.trackersTitle })).toBeInTheDocument();
    expect(screen.getByTestId("station-tracker")).toHaveTextContent("Secretary: abcDEF123+/xyz");
    expect(screen.queryByRole("link")).toBeNull();
  });
});
