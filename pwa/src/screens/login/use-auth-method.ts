/**
 * The login form's authentication-method state machine (docs/product.md, Rules): unknown until a
 * check-user lookup, run 500 ms after the matric number matches the pattern, answers
 * password (true) or date of birth (false). Empty or malformed input resets it to unknown;
 * a 404 says 'User not found'; other failures are only logged.
 */
import { useEffect, useRef, useState } from "react";
import { CHECK_USER_DEBOUNCE_MS, MATRIC_PATTERN, messages } from "@evoting/shared";
import { api, ApiRequestError } from "../../api/client";

export type AuthMethod = "unknown" | "password" | "dob";

export interface AuthMethodState {
  method: AuthMethod;
  checking: boolean;
  /** 'User not found' after a 404, else null. */
  notFound: string | null;
}

export function useAuthMethod(matricNumber: string): AuthMethodState {
  const [state, setState] = useState<AuthMethodState>({ method: "unknown", checking: false, notFound: null });
  // Answers to an older value must not overwrite the state of the current one.
  const latest = useRef(0);

  useEffect(() => {
    const value = matricNumber.trim();
    const seq = ++latest.current;
    if (!value || !MATRIC_PATTERN.test(value)) {
      setState({ method: "unknown", checking: false, notFound: null });
      return;
    }
    setState({ method: "unknown", checking: false, notFound: null });
    const timer = setTimeout(() => {
      setState({ method: "unknown", checking: true, notFound: null });
      api.checkUser(value).then(
        (answer) => {
          if (seq !== latest.current) return;
          setState({ method: answer.requiresPassword ? "password" : "dob", checking: false, notFound: null });
        },
        (error: unknown) => {
          if (seq !== latest.current) return;
          if (error instanceof ApiRequestError && error.status === 404) {
            setState({ method: "unknown", checking: false, notFound: messages.userNotFound });
          } else {
            console.error("check-user failed", error);
            setState({ method: "unknown", checking: false, notFound: null });
          }
        },
      );
    }, CHECK_USER_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [matricNumber]);

  return state;
}
