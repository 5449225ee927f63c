/**
 * Whether the station device can encrypt a verifiable position's ballot offline: the ballot
 * worker (verifiable/encrypt.ts) loaded, so the service worker keeps its script (src/sw.ts).
 */
import type { BallotPosition } from "@evoting/shared";
import { generateCredential } from "@evoting/shared/belenios";
import { encryptBallot } from "../../verifiable/encrypt";

const checks = new Map<string, Promise<boolean>>();

/**
 * True when every locked verifiable position of the package has had one throwaway ballot
 * encrypted on this device (a random credential, once per election and page); a failure is
 * tried again at the next ask.
 */
export async function verifiableReady(positions: readonly BallotPosition[]): Promise<boolean> {
  const elections = [...new Set(positions.flatMap((p) => (p.belenios?.state === "open" && p.belenios.election ? [p.belenios.election] : [])))];
  const results = elections.map((election) => {
    let check = checks.get(election);
    if (!check) {
      check = encryptBallot(election, generateCredential(), { selected: [0] }).then(
        () => true,
        () => {
          checks.delete(election);
          return false;
        },
      );
      checks.set(election, check);
    }
    return check;
  });
  return (await Promise.all(results)).every(Boolean);
}
