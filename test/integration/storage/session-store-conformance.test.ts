/**
 * The SDK's 13 SessionStore conformance checks over every store flower can run on: the two backends raw,
 * and the rewrite layers over each (the layers must not break the contract they wrap).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe } from "vitest";
import { PruningSessionStore, withRewrites } from "../../../src/session-layers/pruning-store.js";
import { RedactingSessionStore } from "../../../src/session-layers/redacting-store.js";
import { SecretRedactor } from "../../../src/secret-redactor.js";
import { BACKEND_NAMES, useStoreBackends } from "./store-backends.js";
import { registerSessionStoreConformance } from "./session-store-conformance.js";

const backends = useStoreBackends();
let workspace: string;
beforeAll(() => {
  workspace = mkdtempSync(join(tmpdir(), "flower-conformance-"));
});
afterAll(() => rmSync(workspace, { recursive: true, force: true }));

describe.each(BACKEND_NAMES)("%s store", (name) => {
  describe("raw", () => {
    registerSessionStoreConformance(async () => (await backends[name].open()).store);
  });

  describe("PruningSessionStore over it (trim on)", () => {
    registerSessionStoreConformance(async () => {
      const { store } = await backends[name].open();
      return new PruningSessionStore({ inner: store, workspace, trim: true });
    });
  });

  describe("withRewrites over the redacting layer (as the runtime wires it, a secret set)", () => {
    // The checks' entries hold no secret: the layer must hand them through unchanged.
    const redactor = new SecretRedactor([{ name: "ANTHROPIC_API_KEY", value: "sk-ant-conformance-0123" }]);
    registerSessionStoreConformance(async () =>
      withRewrites(new RedactingSessionStore((await backends[name].open()).store, redactor), { workspace }),
    );
  });

  describe("withRewrites(store) (defaults)", () => {
    registerSessionStoreConformance(async () =>
      withRewrites((await backends[name].open()).store, { workspace }),
    );
  });
});
