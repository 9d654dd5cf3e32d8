import { describe, expect, it } from "vitest";
import { cannotPass, retryCannotPass } from "../../../src/runtime/drive/failure-class.js";
import { CANNOT_PASS } from "../../../src/runtime/step-loop-text.js";

const evidence = { apiStatus: null, apiErrorType: null, started: true, text: "" };

describe("failure classes", () => {
  it("the binary's retry labels: 401, 403 and cloud credentials are cut short, the rest is not", () => {
    expect(retryCannotPass(401, "authentication_failed")).toBe("authentication");
    expect(retryCannotPass(null, "authentication_failed")).toBe("authentication");
    expect(retryCannotPass(403, "unknown")).toBe("permission");
    expect(retryCannotPass(null, "cloud_credential_error")).toBe("cloud-credentials");
    for (const [status, error] of [
      [429, "rate_limit"],
      [529, "overloaded"],
      [500, "server_error"],
      [null, "unknown"],
      [null, null],
    ] as const)
      expect(retryCannotPass(status, error), `${status} ${error}`).toBeNull();
  });

  it("a 400 of another type than invalid_request_error is left to the retries", () => {
    expect(cannotPass({ ...evidence, apiStatus: 400, apiErrorType: "invalid_request_error" })).toBe(
      "invalid-request",
    );
    expect(cannotPass({ ...evidence, apiStatus: 400, apiErrorType: "something_else" })).toBeNull();
  });

  it("Google's and AWS's missing credentials read the same", () => {
    for (const text of [
      "API Error: Could not load AWS credentials from any providers",
      "API Error: Could not load the default credentials. Browse to https://cloud.google.com/docs/...",
    ])
      expect(cannotPass({ ...evidence, text }), text).toBe("cloud-credentials");
  });

  it("the hint says what to check, in each language", () => {
    expect(CANNOT_PASS.en("authentication", "API Error: 401 invalid x-api-key")).toBe(
      "not retried, it cannot pass: API Error: 401 invalid x-api-key — check ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN)",
    );
    expect(
      CANNOT_PASS.en("refused-start", "exited — claude said: cannot be used with root/sudo privileges"),
    ).toMatch(/set IS_SANDBOX=1 .*see flower -v$/);
    expect(CANNOT_PASS.en("refused-start", "exited — claude said: error: unknown option '--x'")).toMatch(
      /refused to start; see flower -v$/,
    );
    expect(CANNOT_PASS.zh("authentication", "API Error: 401")).toContain("ANTHROPIC_API_KEY");
  });
});
