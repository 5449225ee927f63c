import { useLogout } from "../data/use-logout";
import { LogoutWarning } from "../components/LogoutWarning";

/** A page with the app's Logout button and its queued-votes warning, for the logout tests. */
export function LogoutScreen() {
  const logout = useLogout();
  return (
    <>
      <button type="button" onClick={logout}>
        Logout
      </button>
      <LogoutWarning />
    </>
  );
}
