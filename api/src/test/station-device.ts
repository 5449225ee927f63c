/** Test helper: what a polling-station device does with a ballot before it sends it. */
import { createCipheriv, randomBytes, randomUUID } from "node:crypto";
import { STATION_BALLOT_BLOCK, type StationChoice, type StationSessionInfo } from "@evoting/shared";

/** Seals a ballot exactly as the device does (AES-256-GCM, session id as associated data, padded). */
export function sealStationBallot(session: StationSessionInfo, voterId: string, choices: StationChoice[], castAt: number) {
  const ballotId = randomUUID();
  const body = { v: 1, ballotId, voterId, castAt, choices, pad: "" };
  const size = JSON.stringify(body).length;
  body.pad = "x".repeat(Math.ceil(size / STATION_BALLOT_BLOCK) * STATION_BALLOT_BLOCK - size);
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", Buffer.from(session.key, "base64url"), iv);
  cipher.setAAD(Buffer.from(session.sessionId));
  const data = Buffer.concat([cipher.update(JSON.stringify(body)), cipher.final(), cipher.getAuthTag()]);
  return { ballotId, sealed: { sessionId: session.sessionId, iv: iv.toString("base64url"), data: data.toString("base64url") } };
}
