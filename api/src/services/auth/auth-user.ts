import type { Role } from "@evoting/shared";

/** The signed-in user a request acts for (its session's user). */
export interface AuthUser {
  id: string;
  name: string;
  role: Role;
  matricNumber: string;
  email: string | null;
  hasPassword: boolean;
}
