/**
 * The store spec is parsed once, where it enters: `--store` / FLOWER_STORE by the CLI (its errors name
 * the flag or the variable), a string given to `Runtime({ store })` or the fleet by the library (its
 * errors name `store`). A spec parsed already is taken as it is.
 */
import { describe, expect, it } from "vitest";
import { storeOption } from "../../../src/cli/command-line/store-option.js";
import { fleetStoreSpec } from "../../../src/storage/fleet-store.js";
import { parseStoreSpec, storeSpecOf, storeUrl } from "../../../src/storage/store-spec.js";
import { resolveRuntimeOptions } from "../../../src/runtime/options.js";
import { useTempDirs } from "../../support/temp-dir.js";

const URL_WITH_SCHEMA = "postgres://ci:secret@db.internal:5432/flower?schema=team_a";
const MALFORMED = "postgres://ci:secret@:5432/x";

describe("storeOption: --store and FLOWER_STORE parsed once, the error naming where the value came from", () => {
  it("names --store for the flag and FLOWER_STORE for the variable", () => {
    expect(() => storeOption({ store: MALFORMED }, {})).toThrow(
      /^Invalid option --store: got "postgres:\/\/ci:\*\*\*@/,
    );
    expect(() => storeOption({}, { FLOWER_STORE: MALFORMED })).toThrow(/^Invalid option FLOWER_STORE: got/);
  });

  it("keeps the text only to print it again; the spec is what is passed on", () => {
    const store = storeOption({ store: URL_WITH_SCHEMA }, {});
    expect(store.text).toBe(URL_WITH_SCHEMA);
    expect(store.spec).toEqual(parseStoreSpec(URL_WITH_SCHEMA));
  });
});

describe("storeSpecOf: a library boundary takes a spec or a string", () => {
  it("takes a parsed spec as it is, and parses a string or nothing", () => {
    const spec = parseStoreSpec(URL_WITH_SCHEMA, "--store");
    expect(storeSpecOf(spec)).toBe(spec);
    expect(storeSpecOf(URL_WITH_SCHEMA)).toEqual(spec);
    expect(storeSpecOf(undefined)).toEqual({ kind: "sqlite", path: null });
  });

  it("names the option in the error: `store` for a string, and for an object that is no spec", () => {
    expect(() => storeSpecOf(MALFORMED)).toThrow(/^Invalid option store: got "postgres:\/\/ci:\*\*\*@/);
    expect(() => storeSpecOf({ kind: "postgres", url: "mysql://x" })).toThrow(/^Invalid option store:/);
    expect(() => storeSpecOf({ kind: "sqlite", path: " " })).toThrow(/^Invalid option store:/);
  });

  it("storeUrl names the spec again: parsed, it gives the same spec", () => {
    for (const value of [URL_WITH_SCHEMA, "postgres://ci@db.internal/flower"]) {
      const spec = parseStoreSpec(value);
      if (spec.kind !== "postgres") throw new Error("expected a postgres spec");
      expect(parseStoreSpec(storeUrl(spec))).toEqual(spec);
    }
  });
});

describe("Runtime({ store }) and the fleet take the parsed spec", () => {
  const workspace = useTempDirs().make("flower-store-spec-");

  it("the runtime keeps a given spec and parses a string, its error naming `store`", () => {
    const spec = parseStoreSpec("sqlite:/tmp/flower-sessions.db");
    expect(resolveRuntimeOptions({ workspace, store: spec }).store).toBe(spec);
    expect(resolveRuntimeOptions({ workspace, store: "sqlite:/tmp/flower-sessions.db" }).store).toEqual(spec);
    expect(() => resolveRuntimeOptions({ workspace, store: MALFORMED })).toThrow(/^Invalid option store:/);
  });

  it("the fleet takes a postgres spec as it is and refuses any other", () => {
    const spec = parseStoreSpec(URL_WITH_SCHEMA);
    expect(fleetStoreSpec(spec)).toBe(spec);
    expect(() => fleetStoreSpec(parseStoreSpec("sqlite:/tmp/x.db"))).toThrow(/^Invalid option store:.*fleet/);
  });
});
