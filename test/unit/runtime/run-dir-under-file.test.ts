/**
 * A run directory that can never be made (a file, or a path under one) is refused by `new Runtime` with
 * a ConfigurationError naming `runDir` and the file in the way, before anything is written: not the raw
 * `ENOTDIR: not a directory, mkdir …` of the first write.
 */
import { readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigurationError, Runtime } from "../../../src/index.js";
import { useTempDirs } from "../../support/temp-dir.js";

const temp = useTempDirs();

function refused(make: () => unknown): ConfigurationError {
  try {
    make();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigurationError);
    return error as ConfigurationError;
  }
  throw new Error("expected a ConfigurationError, got none");
}

describe("new Runtime({ runDir }) where no folder can be made", () => {
  it.each([
    ["under a file", "somefile/runs"],
    ["deeper under a file", "somefile/a/runs"],
    ["a file itself", "somefile"],
  ])("%s: names runDir and the file, writes nothing", (_, runDir) => {
    const root = temp.make("flower-rundir-");
    writeFileSync(join(root, "somefile"), "mine\n");
    const error = refused(() => new Runtime({ workspace: root, runDir: join(root, runDir) }));
    expect(error.option).toBe("runDir");
    expect(error.message).toBe(
      `Invalid option runDir: got ${JSON.stringify(join(root, runDir))}, expected a directory path (${join(root, "somefile")} is not a directory).`,
    );
    expect(readdirSync(root)).toEqual(["somefile"]);
  });

  it("a dangling link in its place is named too", () => {
    const root = temp.make("flower-rundir-");
    symlinkSync(join(root, "nowhere"), join(root, "runs"));
    const error = refused(() => new Runtime({ workspace: root, runDir: join(root, "runs") }));
    expect(error.option).toBe("runDir");
    expect(error.message).toContain(`(${join(root, "runs")} is not a directory)`);
    expect(readdirSync(root)).toEqual(["runs"]);
  });
});
