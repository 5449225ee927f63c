/**
 * The signed-in session (docs/product.md, The calls and Rules): a bearer token and the user object, kept in
 * localStorage under `authToken` and `user` so a reload restores them. A tiny external store
 * with no React in it, so the API client, the router guards and components share one truth.
 */
import { canViewAdmin, canWriteAdmin, type UserProfile } from "@evoting/shared";

export const TOKEN_KEY = "authToken";
export const USER_KEY = "user";
/** Set while the token is a polling-station device's (decision 0009): it reaches only the station. */
export const STATION_DEVICE_KEY = "authStationDevice";

export interface Session {
  token: string;
  user: UserProfile;
  /** The token is this device's station token, not a sign-in: the app keeps to /station. */
  stationDevice?: true;
}

type Listener = () => void;

function readStored(): Session | null {
  try {
    const token = localStorage.getItem(TOKEN_KEY);
    const rawUser = localStorage.getItem(USER_KEY);
    // Only both together make a session; a half-written pair is treated as signed out.
    if (!token || !rawUser) return null;
    const user = JSON.parse(rawUser) as UserProfile;
    if (!user || typeof user !== "object") return null;
    return localStorage.getItem(STATION_DEVICE_KEY) === token ? { token, user, stationDevice: true } : { token, user };
  } catch {
    return null;
  }
}

let current: Session | null = readStored();
const listeners = new Set<Listener>();

function emit() {
  for (const listener of listeners) listener();
}

export const session = {
  get: (): Session | null => current,
  token: (): string | null => current?.token ?? null,
  user: (): UserProfile | null => current?.user ?? null,
  isAuthenticated: (): boolean => current !== null,
  isAdmin: (): boolean => current?.user.role === "admin",
  /** Admins, and observers read-only: the Admin Panel is theirs. */
  canViewAdmin: (): boolean => canViewAdmin(current?.user.role),
  /** Only admins change anything: observers see every write hidden. */
  canWriteAdmin: (): boolean => canWriteAdmin(current?.user.role),
  /** The device holds a polling station's token: nothing but /station works with it. */
  isStationDevice: (): boolean => current?.stationDevice === true,

  signIn(token: string, user: UserProfile, { stationDevice = false }: { stationDevice?: boolean } = {}) {
    current = stationDevice ? { token, user, stationDevice: true } : { token, user };
    localStorage.setItem(TOKEN_KEY, token);
    localStorage.setItem(USER_KEY, JSON.stringify(user));
    // The mark names its token, so a sign-in written by an older tab never inherits it.
    if (stationDevice) localStorage.setItem(STATION_DEVICE_KEY, token);
    else localStorage.removeItem(STATION_DEVICE_KEY);
    emit();
  },

  /** Merges fields into the stored user (email changed, password set, profile refreshed). */
  updateUser(patch: Partial<UserProfile>) {
    if (!current) return;
    current = { ...current, user: { ...current.user, ...patch } };
    localStorage.setItem(USER_KEY, JSON.stringify(current.user));
    emit();
  },

  clear() {
    const wasSignedIn = current !== null;
    current = null;
    localStorage.removeItem(TOKEN_KEY);
    localStorage.removeItem(USER_KEY);
    localStorage.removeItem(STATION_DEVICE_KEY);
    if (wasSignedIn) emit();
  },

  /** Re-reads storage: used by tests and when another tab signs in or out. */
  reload() {
    current = readStored();
    emit();
  },

  subscribe(listener: Listener): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

// Another tab signing out (or in) should be reflected here too.
if (typeof window !== "undefined") {
  window.addEventListener("storage", (event) => {
    if (event.key === TOKEN_KEY || event.key === USER_KEY || event.key === STATION_DEVICE_KEY || event.key === null) session.reload();
  });
}
