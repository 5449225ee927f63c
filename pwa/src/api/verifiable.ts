/**
 * The public ballot boxes of verifiable positions (docs/verifiable.md): no sign-in needed.
 * The archive itself is a plain download (its address, below).
 */
import type { VerifiablePositionRef } from "@evoting/shared";
import { API_BASE, request } from "./client";

export interface Board {
  /** The hash of the archive's last event: changes with every ballot and step of the count. */
  fingerprint: string | null;
  trackers: string[];
}

export const ballotBoxApi = {
  positions: () => request<VerifiablePositionRef[]>("/positions/verifiable", { signOutOn401: false }),
  board: (positionId: string) => request<Board>(`/positions/${encodeURIComponent(positionId)}/board`, { signOutOn401: false }),
};

/** The archive's address, as an observer downloads it. */
export const archivePath = (positionId: string) => `${API_BASE}/positions/${encodeURIComponent(positionId)}/archive.bel`;
