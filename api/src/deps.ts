/** What the app is built from. `server.ts` wires real ones; tests wire a fresh database and a fake clock. */
import type { Role } from "@evoting/shared";
import type { Clock } from "./clock.ts";
import type { Database } from "./db/client.ts";
import type { Keys } from "./security/keys.ts";
import type { SignInThrottle } from "./security/throttle.ts";
import type { ResultsService } from "./services/results.ts";
import type { Hub, HubOptions } from "./realtime/hub.ts";
import type { ChatService } from "./chat/service.ts";

export interface Config {
  sessionMs: number;
  voteGraceMs: number;
  trustProxy: boolean;
  /** Realtime delivery intervals (tests shorten them). */
  realtime?: Partial<HubOptions>;
}

export interface Deps {
  database: Database;
  clock: Clock;
  keys: Keys;
  config: Config;
  throttle: SignInThrottle;
  results: ResultsService;
  hub: Hub;
  chat: ChatService;
}

export interface AuthUser {
  id: string;
  name: string;
  role: Role;
  matricNumber: string;
  email: string | null;
  hasPassword: boolean;
}

export type AppEnv = {
  Variables: {
    user: AuthUser;
    tokenHash: string;
  };
};
