/**
 * The `--store` part of the printed `flower continue …` line (cli/store-hint.ts): repeated when the
 * store came from the command line, left out when FLOWER_STORE holds it, and never with a password —
 * neither the real one nor a mask, which would not work when pasted.
 */
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { continueCommand } from "../../../src/cli/live/live-settings.js";
import { storeHint } from "../../../src/cli/store-hint.js";
import { storeOption } from "../../../src/cli/command-line/store-option.js";

const here = { runDir: resolve("runs"), workspace: resolve(".") };
const WITH_PASSWORD = "postgres://flower:s3cret-pw@db.internal:5432/agents?schema=fleet";

describe("storeHint", () => {
  it("adds nothing for the default store or a store that came from FLOWER_STORE", () => {
    expect(storeHint(storeOption({}, {}), "en", {})).toEqual({ args: [], note: null });
    const env = { FLOWER_STORE: WITH_PASSWORD };
    expect(storeHint(storeOption({}, env), "en", env)).toEqual({ args: [], note: null });
    // The flag repeating the variable: the pasted command reads the variable again.
    expect(storeHint(storeOption({ store: WITH_PASSWORD }, env), "en", env)).toEqual({
      args: [],
      note: null,
    });
  });

  it("repeats a --store URL without a password as given, and a sqlite path", () => {
    const url = "postgres://flower@db.internal:5432/agents?schema=fleet";
    expect(storeHint(storeOption({ store: url }, {}), "en", {})).toEqual({
      args: ["--store", url],
      note: null,
    });
    expect(storeHint(storeOption({ store: "sqlite:/data/s.db" }, {}), "en", {})).toEqual({
      args: ["--store", "sqlite:/data/s.db"],
      note: null,
    });
  });

  it("leaves a password out (no mask) and says where the pasted command finds it, in both languages", () => {
    const hint = storeHint(storeOption({ store: WITH_PASSWORD }, {}), "en", {});
    expect(hint.args).toEqual(["--store", "postgres://flower@db.internal:5432/agents?schema=fleet"]);
    expect(hint.note).toContain("PGPASSWORD");
    expect(hint.note).toContain("FLOWER_STORE");
    const zh = storeHint(storeOption({ store: WITH_PASSWORD }, {}), "zh", {});
    expect(zh.note).toContain("密码");
    // A flag that differs from the variable wins, so it is repeated.
    const other = { FLOWER_STORE: "postgres://other@db2/agents" };
    expect(storeHint(storeOption({ store: WITH_PASSWORD }, other), "en", other).args[1]).toBe(
      "postgres://flower@db.internal:5432/agents?schema=fleet",
    );
  });
});

describe("continueCommand with a store", () => {
  it("puts the quoted store URL after the step and the note on its own line, never the password", () => {
    const previous = process.env.FLOWER_STORE;
    delete process.env.FLOWER_STORE;
    try {
      const store = storeOption({ store: WITH_PASSWORD }, {});
      const line = continueCommand("fix-it", { ...here, store, locale: "en" });
      const [command, note] = line.split("\n");
      expect(command).toBe(
        "flower continue fix-it --store 'postgres://flower@db.internal:5432/agents?schema=fleet'",
      );
      expect(note).toMatch(/^ {2}\(the store's password is not printed/);
      expect(line).not.toContain("s3cret-pw");
      expect(line).not.toContain("***");
      expect(continueCommand("fix-it", { ...here, store: storeOption({}, {}) })).toBe(
        "flower continue fix-it",
      );
    } finally {
      if (previous !== undefined) process.env.FLOWER_STORE = previous;
    }
  });
});
