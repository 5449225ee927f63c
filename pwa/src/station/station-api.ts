/** The polling-station calls, admin and device, through the one API client. */
import type {
  BallotPosition,
  ElectionSettings,
  RollEntry,
  SealedStationBallot,
  StationBallotAnswer,
  StationDevice,
  StationImportReport,
  StationInfo,
  StationOfficer,
  StationPackage,
  StationSessionInfo,
  StationTally,
} from "@evoting/shared";
import { request } from "../api/client";

export type DevicePackage = StationPackage<BallotPosition, ElectionSettings>;

const station = (id: string) => `/admin/stations/${encodeURIComponent(id)}`;

export const stationApi = {
  list: () => request<StationInfo[]>("/admin/stations"),
  tally: () => request<StationTally>("/admin/stations/ballots"),
  create: (name: string) => request<StationInfo>("/admin/stations", { method: "POST", body: { name } }),
  assign: (id: string, matricNumber: string) =>
    request<StationOfficer>(`${station(id)}/officers`, { method: "POST", body: { matricNumber } }),
  unassign: (id: string, userId: string) =>
    request<void>(`${station(id)}/officers/${encodeURIComponent(userId)}`, { method: "DELETE" }),
  revoke: (id: string) => request<{ message: string }>(`${station(id)}/revoke`, { method: "POST" }),
  devices: () => request<StationDevice[]>("/admin/stations/devices"),
  reportLost: (sessionId: string) => request<{ message: string }>(`/admin/stations/devices/${encodeURIComponent(sessionId)}/lost`, { method: "POST" }),
  decideHeld: (sessionId: string, decision: "accept" | "reject") =>
    request<{ message: string }>(`/admin/stations/devices/${encodeURIComponent(sessionId)}/held`, { method: "POST", body: { decision } }),
  importFile: (file: unknown) => request<StationImportReport>("/admin/stations/import", { method: "POST", body: file }),

  // the device
  mine: () => request<{ _id: string; name: string }[]>("/station/mine"),
  open: (stationId: string, password: string) => request<StationSessionInfo>("/station/sessions", { method: "POST", body: { stationId, password } }),
  status: (sessionId: string, signal?: AbortSignal) => request<{ open: true }>(`/station/sessions/${encodeURIComponent(sessionId)}`, { signal }),
  close: (sessionId: string, pending: string[]) => request<void>(`/station/sessions/${encodeURIComponent(sessionId)}/close`, { method: "POST", body: { pending } }),
  package: (sessionId: string) => request<DevicePackage>(`/station/package?session=${encodeURIComponent(sessionId)}`),
  /** The server's current view of voters (who has voted for what), to start a ballot on fresh facts. */
  lookUp: (sessionId: string, query: string, signal?: AbortSignal) =>
    request<RollEntry[]>(`/station/voters?session=${encodeURIComponent(sessionId)}&query=${encodeURIComponent(query)}`, { signal }),
  deliver: (ballotId: string, sealed: SealedStationBallot) =>
    request<StationBallotAnswer>("/station/ballots", { method: "POST", body: sealed, headers: { "Idempotency-Key": ballotId } }),
};

export type StationApi = typeof stationApi;
