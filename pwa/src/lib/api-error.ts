/**
 * The error every API call throws for an answer other than 2xx (api/client.ts makes them), and
 * the message a toast shows for one. Here, below the API client, so a toast helper
 * (./notify.ts) needs no HTTP code.
 */
import type { ApiError } from "@evoting/shared";

export class ApiRequestError extends Error {
  readonly status: number;
  readonly issues: ApiError["issues"];
  /** True when the server (not the fallback) supplied the message. */
  readonly fromServer: boolean;

  constructor(status: number, message: string, fromServer: boolean, issues?: ApiError["issues"]) {
    super(message);
    this.name = "ApiRequestError";
    this.status = status;
    this.fromServer = fromServer;
    this.issues = issues;
  }
}

/** The message a toast should show: the server's, else the action's fallback (docs/product.md, Messages). */
export function errorMessage(error: unknown, fallback: string): string {
  return error instanceof ApiRequestError && error.fromServer ? error.message : fallback;
}
