import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ConfigurationError } from "../../../src/errors.js";
import { openBackingStore } from "../../../src/store/open-store.js";
import { PostgresSessionStore } from "../../../src/store/postgres/postgres-store.js";
import { SqliteSessionStore } from "../../../src/store/sqlite-store.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "flower-open-store-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("openBackingStore", () => {
  it("opens SQLite by default, from sqlite:<path>, and Postgres from a URL (lazily, without connecting)", async () => {
    const fallback = openBackingStore(undefined, join(dir, "sessions.db"));
    expect(fallback).toBeInstanceOf(SqliteSessionStore);
    expect((fallback as SqliteSessionStore).path).toBe(join(dir, "sessions.db"));
    await fallback.close();
    const explicit = openBackingStore(`sqlite:${join(dir, "other.db")}`, join(dir, "sessions.db"));
    expect((explicit as SqliteSessionStore).path).toBe(join(dir, "other.db"));
    await explicit.close();
    const shared = openBackingStore("postgres://runner:secret@db.example:5432/flower", "unused");
    expect(shared).toBeInstanceOf(PostgresSessionStore);
    expect((shared as PostgresSessionStore).location).not.toContain("secret");
    await shared.close();
  });

  it("names a value it cannot use, without a password in it", () => {
    expect(() => openBackingStore("mysql://me:secret@host/db", "x")).toThrow(ConfigurationError);
    expect(() => openBackingStore("mysql://me:secret@host/db", "x")).toThrow(/mysql:\/\/me:\*\*\*@host\/db/);
    expect(() => openBackingStore("sqlite:", "x")).toThrow(/store/);
  });
});
