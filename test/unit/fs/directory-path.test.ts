/**
 * Whether a run directory can be made where it is asked for: a path that is a file, under a file or a
 * dangling link is named (the first path on the way that is not a directory); a folder that exists or
 * can be made is not.
 */
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { notADirectoryOnPath } from "../../../src/fs/directory-path.js";
import { useTempDirs } from "../../support/temp-dir.js";

const temp = useTempDirs();

describe("notADirectoryOnPath", () => {
  it("names the file a path is, or lies under", () => {
    const root = temp.make("flower-dirpath-");
    writeFileSync(join(root, "somefile"), "x");
    expect(notADirectoryOnPath(join(root, "somefile"))).toBe(join(root, "somefile"));
    expect(notADirectoryOnPath(join(root, "somefile", "runs"))).toBe(join(root, "somefile"));
    expect(notADirectoryOnPath(join(root, "somefile", "a", "b"))).toBe(join(root, "somefile"));
  });

  it("names a link to nothing (mkdir cannot make a folder in its place)", () => {
    const root = temp.make("flower-dirpath-");
    symlinkSync(join(root, "nowhere"), join(root, "dangling"));
    expect(notADirectoryOnPath(join(root, "dangling"))).toBe(join(root, "dangling"));
    expect(notADirectoryOnPath(join(root, "dangling", "runs"))).toBe(join(root, "dangling"));
  });

  it("is null for a folder that exists, one that can be made, and one behind a link to a folder", () => {
    const root = temp.make("flower-dirpath-");
    mkdirSync(join(root, "runs"));
    symlinkSync(join(root, "runs"), join(root, "linked"));
    expect(notADirectoryOnPath(join(root, "runs"))).toBeNull();
    expect(notADirectoryOnPath(join(root, "new", "deeper", "runs"))).toBeNull();
    expect(notADirectoryOnPath(join(root, "linked", "inner"))).toBeNull();
  });
});
