/**
 * Which failures can pass on a second try and which cannot. One place, pure, so each rule is tested on
 * its own; session-outcome.ts asks it about a session's end, session-run.ts about the binary's own
 * retries (`system/api_retry`), and step-run.ts ends the step after one attempt when it says "cannot pass".
 *
 * Cannot pass (the same request gets the same answer, however often it is sent):
 * - 401 / `authentication_error` / the binary's `authentication_failed`: the key is wrong or missing;
 * - 403 / `permission_error`: the key may not use this model or resource;
 * - 400 `invalid_request_error` (a "prompt is too long" never gets here: it is an overflow, decided first);
 * - a cloud provider without credentials (the binary's `cloud_credential_error`, "Could not load AWS
 *   credentials", Google's "Could not load the default credentials");
 * - a binary that exits before its first message (it refused its arguments or its environment: root
 *   without IS_SANDBOX=1, an unknown option). Killed by a signal is not this: that may be the OOM killer.
 *
 * Everything else keeps the retries: 429, 5xx, 529, a dropped or refused connection, a crash mid-run.
 * Measured with binary 2.1.332: a 401 is retried by the binary itself (CLAUDE_CODE_MAX_RETRIES), so a
 * step that retried it too sent it 9 times; a 403 is not retried by the binary; a 400 is sent up to 6
 * times by the binary (it tries its request a few ways) and cannot be cut short from here.
 */

export type CannotPass =
  "authentication" | "permission" | "invalid-request" | "cloud-credentials" | "refused-start";

/** What a session said about its failure, from its stream and the process. */
export interface FailureEvidence {
  /** The HTTP status of the last API error (result `api_error_status`, or an `api_retry`'s `error_status`). */
  apiStatus: number | null;
  /** Its type: result `api_error_type` (`authentication_error`) or an `api_retry`'s `error` (`authentication_failed`). */
  apiErrorType: string | null;
  /** Whether the binary got as far as its first message (`system/init`). */
  started: boolean;
  /** The text of the error (result text, API error message, what the iterator threw). */
  text: string;
}

const AUTHENTICATION = new Set(["authentication_error", "authentication_failed"]);
const PERMISSION = new Set(["permission_error"]);
const CLOUD_CREDENTIALS = new Set(["cloud_credential_error"]);
const CLOUD_CREDENTIALS_TEXT =
  /could not load (the default |aws |azure )?credentials|could not load aws credentials|unable to locate credentials/i;
/** What the SDK throws when the child exits with a code (a signal reads "terminated by signal"). */
const EXITED_WITH_CODE = /Claude Code process exited with code [1-9]\d*/;

/** The failure's class, or null when another attempt may get through. */
export function cannotPass(evidence: FailureEvidence): CannotPass | null {
  const { apiStatus, apiErrorType, text } = evidence;
  if (apiStatus === 401 || (apiErrorType !== null && AUTHENTICATION.has(apiErrorType)))
    return "authentication";
  if (apiStatus === 403 || (apiErrorType !== null && PERMISSION.has(apiErrorType))) return "permission";
  if ((apiErrorType !== null && CLOUD_CREDENTIALS.has(apiErrorType)) || CLOUD_CREDENTIALS_TEXT.test(text))
    return "cloud-credentials";
  if (apiStatus === 400 && (apiErrorType === null || apiErrorType === "invalid_request_error"))
    return "invalid-request";
  if (!evidence.started && EXITED_WITH_CODE.test(text)) return "refused-start";
  return null;
}

/**
 * Whether the binary's own retry of an API error (a `system/api_retry` message) should be cut short: it
 * is sending a request that cannot pass. Then the session is interrupted before the next request goes
 * out (the first retry waits ~0.5 s), so the provider sees the refused request once.
 */
export function retryCannotPass(status: number | null, error: string | null): CannotPass | null {
  if (status === 401 || (error !== null && AUTHENTICATION.has(error))) return "authentication";
  if (status === 403 || (error !== null && PERMISSION.has(error))) return "permission";
  if (error !== null && CLOUD_CREDENTIALS.has(error)) return "cloud-credentials";
  return null;
}
