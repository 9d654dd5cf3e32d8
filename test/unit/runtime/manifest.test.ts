import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ManifestError } from "../../../src/errors.js";
import { Manifest } from "../../../src/runtime/manifest.js";
import { newStepRecord, type StepRecord } from "../../../src/runtime/step-result.js";
import { useTempDirs } from "../../support/temp-dir.js";

const temp = useTempDirs();

function record(step: string): StepRecord {
  return newStepRecord(step, "a", "p");
}

describe("Manifest", () => {
  it("writes atomically and keeps other steps that another writer added meanwhile", () => {
    const dir = temp.make("flower-manifest-");
    const a = new Manifest(dir);
    const b = new Manifest(dir);
    a.put(record("one"));
    b.put(record("two"));
    a.put({ ...record("one"), status: "done" });
    const file = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8"));
    expect(Object.keys(file.steps).sort()).toEqual(["one", "two"]);
    expect(file.steps.one.status).toBe("done");
    // No temp files are left behind.
    expect(readdirSync(dir)).toEqual(["manifest.json"]);
  });

  it("refuses a corrupt manifest with a clear error and leaves it untouched", () => {
    const dir = temp.make("flower-manifest-");
    writeFileSync(join(dir, "manifest.json"), '{"format": "flower-manif');
    expect(() => new Manifest(dir)).toThrow(ManifestError);
    expect(() => new Manifest(dir)).toThrow(/not valid JSON; it was left as it is/);
    expect(readFileSync(join(dir, "manifest.json"), "utf8")).toBe('{"format": "flower-manif');
  });

  it("refuses a foreign manifest.json without overwriting it", () => {
    const dir = temp.make("flower-manifest-");
    writeFileSync(join(dir, "manifest.json"), '{"name": "some web app", "icons": []}');
    expect(() => new Manifest(dir)).toThrow(/not written by flower-agent/);
    expect(readFileSync(join(dir, "manifest.json"), "utf8")).toContain("some web app");
  });
});
