/**
 * /admin/staff: observers' and officers' accounts, and disabling one (a lost device, someone
 * who left): its sessions end in the same write and it cannot sign in until enabled again.
 * Both are audited. Admins are not disabled here (the last one would lock everyone out), and
 * voters are managed on the roll.
 */
import { Hono, type Context } from "hono";
import { messages } from "@evoting/shared";
import type { AppEnv, Deps } from "../../deps.ts";
import { audit } from "../../http/audit.ts";
import { fail } from "../../http/errors.ts";
import { listStaff, setStaffDisabled } from "../../services/auth/users.ts";

export function staffRoutes(deps: Deps) {
  const setDisabled = (disabled: boolean) => async (c: Context<AppEnv>) => {
    const id = c.req.param("id") ?? "";
    const account = await setStaffDisabled(deps, id, disabled, deps.clock.now());
    if (!account) fail(404, messages.userNotFound);
    await audit(deps, c, {
      action: disabled ? "user.disable" : "user.enable",
      target: `user:${id} ${account.matricNumber} ${account.name}`,
      summary: disabled
        ? `Disabled the ${account.role} account ${account.matricNumber}; its sessions were ended`
        : `Enabled the ${account.role} account ${account.matricNumber}`,
    });
    return c.json({ message: disabled ? messages.disableAccountSuccess : messages.enableAccountSuccess });
  };
  return new Hono<AppEnv>()
    .get("/staff", async (c) => c.json(await listStaff(deps.database)))
    .post("/staff/:id/disable", setDisabled(true))
    .post("/staff/:id/enable", setDisabled(false));
}
