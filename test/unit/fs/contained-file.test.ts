/**
 * What `flower serve` may send of a file a record names: a regular file inside its folder, reached
 * through no link. A link in the file's place or the folder's, a hard link and a folder are not read; the
 * file outside is never returned.
 */
import { linkSync, mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readFileInside } from "../../../src/fs/contained-file.js";
import { useTempDirs } from "../../support/temp-dir.js";

const temp = useTempDirs();

/** A log folder with one log, and a secret outside it. */
function scene() {
  const root = temp.make("flower-contained-");
  const logs = join(root, "workspace", "logs");
  mkdirSync(logs, { recursive: true });
  const log = join(logs, "goal-check-1.log");
  writeFileSync(log, "$ npm test\nok\n");
  const secret = join(root, "outside", "secret.txt");
  mkdirSync(join(root, "outside"));
  writeFileSync(secret, "TOP-SECRET\n");
  return { root, logs, log, secret };
}

describe("readFileInside", () => {
  it("reads a regular file inside its folder", () => {
    const { logs, log } = scene();
    expect(readFileInside(logs, log)).toBe("$ npm test\nok\n");
  });

  it("does not follow a symbolic link in the file's place, to a file outside or inside", () => {
    const { logs, log, secret } = scene();
    rmSync(log);
    symlinkSync(secret, log);
    expect(readFileInside(logs, log)).toBeNull();
    writeFileSync(join(logs, "other.log"), "other\n");
    rmSync(log);
    symlinkSync(join(logs, "other.log"), log);
    expect(readFileInside(logs, log)).toBeNull();
  });

  it("does not read through a log folder that is a link", () => {
    const { root, logs, log } = scene();
    renameSync(logs, join(root, "moved"));
    mkdirSync(join(root, "elsewhere"));
    writeFileSync(join(root, "elsewhere", "goal-check-1.log"), "TOP-SECRET\n");
    symlinkSync(join(root, "elsewhere"), logs);
    expect(readFileInside(logs, log)).toBeNull();
  });

  it("does not read a hard link (another name of the file may be outside)", () => {
    const { logs, log, secret } = scene();
    rmSync(log);
    linkSync(secret, log);
    expect(readFileInside(logs, log)).toBeNull();
  });

  it("reads nothing that is not a regular file inside the folder", () => {
    const { root, logs, log } = scene();
    expect(readFileInside(logs, join(logs, "missing.log"))).toBeNull();
    expect(readFileInside(logs, logs)).toBeNull();
    mkdirSync(join(logs, "a-folder.log"));
    expect(readFileInside(logs, join(logs, "a-folder.log"))).toBeNull();
    // A folder that is not the file's own: the file is not inside it.
    mkdirSync(join(root, "other"));
    expect(readFileInside(join(root, "other"), log)).toBeNull();
  });
});
