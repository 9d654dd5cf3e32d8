/**
 * The live page's field that tells a run something (`POST /runs/<run>/say`, issue 43) on a real port:
 * refused without the token or when the page was started read-only (nothing said), a body that says
 * nothing or is not JSON is a 400 (nothing said), the run's own refusal (an ended run) comes back as a
 * 409 with its reason, and with the token the words reach the action once, whole. The Chromium test of
 * the field is in test/e2e/cli/say.test.ts, against a real run.
 */
import { afterEach, describe, expect, it } from "vitest";
import { serveRuns, type RunSource, type ServedRuns } from "../../../src/serve/index.js";

const open: ServedRuns[] = [];
afterEach(async () => {
  for (const served of open.splice(0)) await served.close();
});

function setUp(allowActions = true) {
  const said: Array<[string, string]> = [];
  const source: RunSource = {
    where: "memory",
    runs: async () => [],
    report: async () => null,
    close: async () => undefined,
  };
  const actions = {
    approve: async () => undefined,
    cancel: async () => undefined,
    say: async (name: string, text: string) => {
      if (name === "ended") throw new Error('run "ended" has ended (done)');
      said.push([name, text]);
    },
  };
  return { said, served: serveRuns({ source, actions, allowActions, port: 0, intervalMs: 50 }) };
}

async function post(served: ServedRuns, run: string, body: string, token: string | null) {
  const response = await fetch(new URL(`/runs/${encodeURIComponent(run)}/say`, served.url), {
    method: "POST",
    headers: { "content-type": "application/json", ...(token !== null ? { "x-flower-token": token } : {}) },
    body,
  });
  return { status: response.status, text: (await response.text()).trim() };
}

describe("the live page's say field", () => {
  it("needs the token; reaches the run once, whole; passes the run's refusal on", async () => {
    const { said, served: serving } = setUp();
    const served = await serving;
    open.push(served);
    const words = JSON.stringify({ text: "Start with the failing test, not the linter" });
    expect(await post(served, "fix-it", words, null)).toEqual({
      status: 403,
      text: "missing or wrong token",
    });
    expect(await post(served, "fix-it", words, "x".repeat(32))).toMatchObject({ status: 403 });
    expect(said).toEqual([]);
    expect(await post(served, "fix-it", "not json", served.token)).toMatchObject({ status: 400 });
    expect(await post(served, "fix-it", JSON.stringify({ text: "   " }), served.token)).toMatchObject({
      status: 400,
    });
    expect(
      await post(served, "fix-it", JSON.stringify({ text: "x".repeat(70_000) }), served.token),
    ).toMatchObject({
      status: 400,
    });
    expect(said).toEqual([]);
    expect(await post(served, "fix-it", words, served.token)).toEqual({ status: 200, text: "ok" });
    expect(said).toEqual([["fix-it", "Start with the failing test, not the linter"]]);
    expect(await post(served, "ended", words, served.token)).toEqual({
      status: 409,
      text: 'run "ended" has ended (done)',
    });
  });

  it("a read-only page refuses it whatever it carries", async () => {
    const { said, served: serving } = setUp(false);
    const served = await serving;
    open.push(served);
    expect(await post(served, "fix-it", JSON.stringify({ text: "hello" }), "x".repeat(32))).toMatchObject({
      status: 403,
    });
    expect(said).toEqual([]);
  });
});
