/**
 * The credential authority's work, in the browser only (docs/verifiable.md): one private
 * credential per voter, and for every verifiable position the voter may vote in, its public
 * credential for that position's uuid. Private credentials stay in this page's memory; only the
 * public ones are uploaded. The work yields to the page every few milliseconds, so thousands of
 * voters never freeze it.
 */
import { isEligible, type Position, type VoterListItem } from "@evoting/shared";
import { generateCredential, publicCredential } from "@evoting/shared/belenios";

export interface Slip {
  name: string;
  matricNumber: string;
  email: string | null;
  credential: string;
  /** The titles of the verifiable positions this credential votes in. */
  positions: string[];
}

export interface CredentialRun {
  slips: Slip[];
  /** Public credentials by position id. */
  publicCredentials: Map<string, string[]>;
}

/** A slice of work this long, then the page gets a turn (input, painting, the progress bar). */
const SLICE_MS = 25;

const nextTurn = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

export async function runCredentials(
  voters: readonly VoterListItem[],
  positions: readonly Position[],
  onProgress: (done: number, total: number) => void,
): Promise<CredentialRun> {
  const publicCredentials = new Map(positions.map((p) => [p._id, [] as string[]]));
  const slips: Slip[] = [];
  let sliceEnd = performance.now() + SLICE_MS;
  for (let i = 0; i < voters.length; i++) {
    const voter = voters[i];
    const theirs = positions.filter((p) => isEligible(p.eligibleGroups ?? [], voter.groups));
    if (theirs.length > 0) {
      const credential = generateCredential();
      for (const p of theirs) publicCredentials.get(p._id)!.push(publicCredential(credential, p.belenios!.uuid));
      slips.push({ name: voter.name, matricNumber: voter.matricNumber, email: voter.email, credential, positions: theirs.map((p) => p.title) });
    }
    if (performance.now() >= sliceEnd || i === voters.length - 1) {
      onProgress(i + 1, voters.length);
      await nextTurn();
      sliceEnd = performance.now() + SLICE_MS;
    }
  }
  return { slips, publicCredentials };
}
