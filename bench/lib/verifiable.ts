import { publicCredential } from "@evoting/shared/belenios";
import { ADMIN_MATRIC, ADMIN_PASSWORD } from "./server.ts";

const HOUR = 3_600_000;

/**
 * Through the real server's API, as the returning officer would: a verifiable position with 5
 * candidates (A to E) open for a day, the server as its one trustee, the public credentials of
 * `credentials`, then the lock. Answers its id.
 */
export async function lockedVerifiablePosition(url: string, credentials: readonly string[], title = "President"): Promise<string> {
  const api = async (path: string, init: { method?: string; token?: string; json?: unknown; form?: FormData } = {}) => {
    const headers: Record<string, string> = {};
    if (init.token) headers.authorization = `Bearer ${init.token}`;
    if (init.json !== undefined) headers["content-type"] = "application/json";
    const res = await fetch(`${url}/api${path}`, { method: init.method ?? "GET", headers, body: init.form ?? (init.json === undefined ? undefined : JSON.stringify(init.json)) });
    if (res.status >= 300) throw new Error(`${init.method ?? "GET"} ${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as Record<string, unknown>;
  };
  const admin = String((await api("/auth/login", { method: "POST", json: { matricNumber: ADMIN_MATRIC, password: ADMIN_PASSWORD } })).token);
  const now = Date.now();
  const position = await api("/admin/positions", {
    method: "POST",
    token: admin,
    json: { title, verifiable: true, startTime: new Date(now - HOUR).toISOString(), endTime: new Date(now + 24 * HOUR).toISOString() },
  });
  const positionId = String(position._id);
  const uuid = (position.belenios as { uuid: string }).uuid;
  for (const name of ["A", "B", "C", "D", "E"]) {
    const form = new FormData();
    form.set("name", name);
    form.set("positionId", positionId);
    await api("/admin/candidates", { method: "POST", token: admin, form });
  }
  await api("/admin/trustees", { method: "POST", token: admin, json: { name: "Server", server: true } });
  await api(`/admin/positions/${positionId}/credentials`, { method: "PUT", token: admin, json: { publicCredentials: credentials.map((c) => publicCredential(c, uuid)) } });
  await api(`/admin/positions/${positionId}/lock`, { method: "POST", token: admin });
  return positionId;
}
