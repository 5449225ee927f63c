/**
 * The returning officer's and trustees' calls for verifiable positions (docs/verifiable.md):
 * trustees, public credentials, the lock, the public archive and partial decryptions.
 * Online-only: nothing here is kept on the device, and no private key or private credential is
 * ever sent (the screens compute with them in the browser).
 */
import type { Position, VoterPage } from "@evoting/shared";
import { MAX_VOTERS_PAGE_SIZE } from "@evoting/shared";
import { request, requestBlob } from "./client";

export type BeleniosState = NonNullable<Position["belenios"]>["state"];

export interface Trustee {
  id: number;
  name: string;
  server: boolean;
  publicKey: string;
  /** Registered by the signed-in account. */
  mine: boolean;
}

/** Who voted for a position, never how (`GET /admin/positions/:id/who-voted`, after its close and the offline grace). */
export interface WhoVoted {
  positionId: string;
  positionTitle: string;
  /** In matriculation number order. */
  voters: { matricNumber: string; name: string }[];
  /** A verifiable position's ballots on its public board: equal to the list's length unless a ballot was cast in someone's name. */
  ballotsOnBoard?: number;
}

export const verifiableApi = {
  trustees: () => request<Trustee[]>("/admin/trustees"),
  positions: () => request<Position[]>("/admin/positions"),
  addTrustee: (body: { name: string; publicKey: string } | { name: string; server: true }) => request<Trustee>("/admin/trustees", { method: "POST", body }),
  putCredentials: (positionId: string, publicCredentials: string[]) =>
    request<{ count: number }>(`/admin/positions/${encodeURIComponent(positionId)}/credentials`, { method: "PUT", body: { publicCredentials } }),
  lock: (positionId: string) => request<{ uuid: string; state: BeleniosState }>(`/admin/positions/${encodeURIComponent(positionId)}/lock`, { method: "POST" }),
  /** The public ballot box as it stands; fetching it also lets the server append the tally when it is due. */
  archive: async (positionId: string) => new Uint8Array(await (await requestBlob(`/positions/${encodeURIComponent(positionId)}/archive.bel`)).arrayBuffer()),
  submitPartialDecryption: (positionId: string, trusteeId: number, partialDecryption: string) =>
    request<{ remaining: number }>(`/admin/positions/${encodeURIComponent(positionId)}/partial-decryptions`, {
      method: "POST",
      body: { trusteeId, partialDecryption },
    }),
  whoVoted: (positionId: string) => request<WhoVoted>(`/admin/positions/${encodeURIComponent(positionId)}/who-voted`),
  /** Every voter on the roll, page by page at the largest page size. */
  wholeRoll: async (onPage?: (loaded: number, total: number) => void) => {
    const first = await request<VoterPage>(`/admin/voters?page=1&pageSize=${MAX_VOTERS_PAGE_SIZE}`);
    const items = [...first.items];
    onPage?.(items.length, first.total);
    for (let page = 2; items.length < first.total; page++) {
      const next = await request<VoterPage>(`/admin/voters?page=${page}&pageSize=${MAX_VOTERS_PAGE_SIZE}`);
      if (next.items.length === 0) break;
      items.push(...next.items);
      onPage?.(items.length, first.total);
    }
    return items;
  },
};

export const stateLabels: Record<BeleniosState, string> = {
  setup: "Setup",
  open: "Open",
  tallying: "Tallying",
  decrypted: "Decrypted",
};

export const stateHelp: Record<BeleniosState, string> = {
  setup: "Trustees and credentials can still change. Lock it before its start.",
  open: "Locked: ballots are taken in its window.",
  tallying: "Voting is over: waiting for every trustee's partial decryption.",
  decrypted: "Every trustee has decrypted: the result is in.",
};
