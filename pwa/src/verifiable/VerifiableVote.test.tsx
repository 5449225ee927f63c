/**
 * A verifiable position on the vote page: the credential's checks, the ballot encrypted on the
 * device (the worker's own code, run in this thread), sent through the outbox, and its tracker
 * on the card and in 'Your Voting Status'. The ballot sent verifies as the server checks it.
 */
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, test, vi } from "vitest";
import {
  ballotTracker,
  electionFingerprint,
  generateCredential,
  generateTrusteeKey,
  parseElection,
  parseTrusteeKey,
  serializeElection,
  verifyBallot,
} from "@evoting/shared/belenios";
import { session } from "../auth/session";
import { openPosition } from "../test/ballot";
import { json, mockFetch } from "../test/fetch-mock";
import { renderWithQuery } from "../test/render";
import { VotePage } from "../screens/VotePage";
import { buildBallot } from "./ballot-worker";
import { resetCredentialState } from "./use-credential";
import { verifiableText } from "./messages";

vi.mock("./encrypt", () => ({
  prewarmBallotWorker: () => undefined,
  encryptBallot: async (election: string, credential: string, choice: unknown) =>
    (await import("./ballot-worker")).buildBallot({ election, credential, choice: choice as never }),
}));

const voter = { _id: "v1", name: "Ada", matricNumber: "2021/5570001", role: "voter" } as never;

function verifiablePosition() {
  const position = openPosition("p1", "President", ["Amaka Nwosu", "Tunde Bakare"]);
  const election = serializeElection({
    uuid: "AbCdEfGhJkLmNp",
    name: "President",
    description: "",
    publicKey: parseTrusteeKey(generateTrusteeKey().publicKey).publicKey,
    question: { answers: ["Tunde Bakare", "Amaka Nwosu"], blank: false, min: 1, max: 1, question: "President" },
  });
  // The locked answers' order is the server's, not the ballot's.
  return { ...position, belenios: { uuid: "AbCdEfGhJkLmNp", state: "open" as const, election, answerIds: ["p1-c1", "p1-c0"] } };
}

beforeEach(() => {
  resetCredentialState();
  session.signIn("tok", voter);
});

describe("a verifiable position on the vote page", () => {
  test("a mistyped credential is refused with a plain message; the right one casts an encrypted ballot and shows its tracker", async () => {
    const position = verifiablePosition();
    const bodies: { positionId: string; ballot?: string; candidateId?: string }[] = [];
    mockFetch({
      "GET /api/vote/positions": () => json([position]),
      "GET /api/vote/my-votes": () => json([]),
      "GET /api/vote/results": () => json({ totalRegisteredVoters: 1, totalVotesCast: 0, results: [], generatedAt: "" }),
      "POST /api/vote": (init) => {
        const body = JSON.parse(init.body as string) as { positionId: string; ballot?: string };
        bodies.push(body);
        return json({ tracker: ballotTracker(body.ballot!), message: "Vote cast successfully!" }, 201);
      },
    });
    renderWithQuery(<VotePage />);
    const card = await screen.findByRole("form", { name: "President" });
    await userEvent.click(within(card).getByRole("radio", { name: "Amaka Nwosu" }));

    await userEvent.click(within(card).getByRole("button", { name: "Cast Vote" }));
    expect(await within(card).findByText(verifiableText.credentialMissing)).toBeInTheDocument();
    const credential = generateCredential();
    const field = within(card).getByLabelText(verifiableText.credentialLabel);
    await userEvent.type(field, `${credential.slice(0, -1)}${credential.endsWith("2") ? "3" : "2"}`);
    await userEvent.click(within(card).getByRole("button", { name: "Cast Vote" }));
    expect(await within(card).findByText(verifiableText.credentialInvalid)).toBeInTheDocument();
    expect(field).toHaveAttribute("aria-invalid", "true");
    expect(bodies).toEqual([]);

    await userEvent.clear(field);
    await userEvent.type(field, credential.toString());
    await userEvent.click(within(card).getByRole("button", { name: "Cast Vote" }));
    expect(await within(card).findByRole("button", { name: "Vote Cast" }, { timeout: 10_000 })).toBeDisabled();

    // Only the ballot goes, never the choice in the clear; it verifies for this election and says Amaka.
    expect(bodies).toHaveLength(1);
    expect(Object.keys(bodies[0]).sort()).toEqual(["ballot", "ballotTicket", "positionId"]);
    const election = parseElection(position.belenios.election);
    const verdict = verifyBallot(bodies[0].ballot!, election, electionFingerprint(position.belenios.election));
    expect(verdict.ok).toBe(true);
    const tracker = ballotTracker(bodies[0].ballot!);
    expect(within(card).getByTestId("tracker")).toHaveTextContent(tracker);
    expect(within(card).getByText(/Your vote has been recorded/)).toHaveTextContent("Amaka Nwosu");
    await waitFor(() => expect(screen.getByTestId("status-tracker")).toHaveTextContent(tracker));
    expect(within(card).getByTestId("credential-saved")).toBeInTheDocument();
    expect(within(card).queryByLabelText(verifiableText.credentialLabel)).toBeNull();
  });

  test("a position not locked yet says so and sends nothing", async () => {
    const position = { ...verifiablePosition(), belenios: { uuid: "AbCdEfGhJkLmNp", state: "setup" as const } };
    mockFetch({
      "GET /api/vote/positions": () => json([position]),
      "GET /api/vote/my-votes": () => json([]),
    });
    renderWithQuery(<VotePage />);
    const card = await screen.findByRole("form", { name: "President" });
    expect(within(card).getByText(verifiableText.notReady)).toBeInTheDocument();
    expect(within(card).queryByLabelText(verifiableText.credentialLabel)).toBeNull();
  });
});

test("the worker's ballot is the tool's format: its tracker is its SHA-256", () => {
  const { election } = verifiablePosition().belenios;
  const { ballot, tracker } = buildBallot({ election, credential: generateCredential(), choice: { selected: [0] } });
  expect(tracker).toBe(ballotTracker(ballot));
});
