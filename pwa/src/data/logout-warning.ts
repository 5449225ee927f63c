import { createStore } from "../offline/store";

/**
 * Votes still queued when 'Logout' was pressed: the warning dialog shows while this is > 0.
 * Its own module so the root's LogoutWarning reads it without pulling the logout code
 * (API client, router, device data) into /login's first load.
 */
export const logoutWarning = createStore(0);
