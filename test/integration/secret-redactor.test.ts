/**
 * The credential redaction (issue 15, security): the redactor on strings and JSON values, and the
 * store layer over both real backends — a transcript entry holding `env` output is stored without the
 * secret, with the variable's marker in its place, and an entry without one is stored as it came.
 */
import { describe, expect, it } from "vitest";
import type { SessionKey, SessionStoreEntry } from "@anthropic-ai/claude-agent-sdk";
import { RedactingSessionStore } from "../../src/session-layers/redacting-store.js";
import { MIN_SECRET_CHARS, SecretRedactor, redactionMarker, secretsOf } from "../../src/secret-redactor.js";
import { BACKEND_NAMES, useStoreBackends } from "./storage/store-backends.js";

const KEY = "sk-ant-api03-UNITKEY-Qw8Er7Ty6";
const TOKEN = "sk-ant-oat01-UNITTOKEN-Zx5Cv4Bn3";
const secrets = [
  { name: "ANTHROPIC_API_KEY", value: KEY },
  { name: "ANTHROPIC_AUTH_TOKEN", value: TOKEN },
];

describe("secretsOf", () => {
  it("takes the known credential variables of useful length, trimmed, and nothing else", () => {
    expect(
      secretsOf({
        ANTHROPIC_API_KEY: ` ${KEY}\n`,
        ANTHROPIC_AUTH_TOKEN: "",
        AWS_BEARER_TOKEN_BEDROCK: "short",
        AWS_SECRET_ACCESS_KEY: "wJalrXUtnFEMI/K7MDENG",
        HOME: "/home/someone-with-a-long-name",
      }),
    ).toEqual([
      { name: "ANTHROPIC_API_KEY", value: KEY },
      { name: "AWS_SECRET_ACCESS_KEY", value: "wJalrXUtnFEMI/K7MDENG" },
    ]);
  });
});

describe("SecretRedactor", () => {
  const redactor = new SecretRedactor(secrets);

  it("replaces every occurrence of every secret by a marker naming its variable", () => {
    const text = `ANTHROPIC_API_KEY=${KEY}\nANTHROPIC_AUTH_TOKEN=${TOKEN}\nagain ${KEY}${KEY}`;
    const redacted = redactor.text(text);
    expect(redacted).toBe(
      "ANTHROPIC_API_KEY=[redacted ANTHROPIC_API_KEY]\nANTHROPIC_AUTH_TOKEN=[redacted ANTHROPIC_AUTH_TOKEN]\n" +
        "again [redacted ANTHROPIC_API_KEY][redacted ANTHROPIC_API_KEY]",
    );
    expect(redactionMarker(secrets[0]!)).toBe("[redacted ANTHROPIC_API_KEY]");
  });

  it("never redacts the empty string or values shorter than the minimum", () => {
    const weak = new SecretRedactor([
      { name: "ANTHROPIC_API_KEY", value: "" },
      { name: "ANTHROPIC_AUTH_TOKEN", value: "x".repeat(MIN_SECRET_CHARS - 1) },
    ]);
    expect(weak.active).toBe(false);
    expect(weak.text("xxxxxxx and more")).toBe("xxxxxxx and more");
    const value = { a: "xxxxxxx" };
    expect(weak.value(value)).toBe(value);
  });

  it("replaces the longer of two overlapping secrets whole", () => {
    const nested = new SecretRedactor([
      { name: "SHORT", value: "abcdefgh" },
      { name: "LONG", value: "abcdefgh-ijklmnop" },
    ]);
    expect(nested.text("abcdefgh-ijklmnop / abcdefgh")).toBe("[redacted LONG] / [redacted SHORT]");
  });

  it("returns a value without secrets as the same object, and copies only the changed branches", () => {
    const clean = { type: "user", message: { content: [{ type: "text", text: "hello" }] } };
    expect(redactor.value(clean)).toBe(clean);

    const untouched = { text: "no secret" };
    const entry = {
      type: "user",
      untouched,
      message: { content: [{ type: "tool_result", content: `PATH=/bin\nANTHROPIC_API_KEY=${KEY}\n` }] },
      [`key-${TOKEN}`]: 1,
    };
    const before = JSON.stringify(entry);
    const redacted = redactor.value(entry);
    expect(JSON.stringify(entry)).toBe(before);
    expect(redacted.untouched).toBe(untouched);
    const serialised = JSON.stringify(redacted);
    expect(serialised).not.toContain(KEY);
    expect(serialised).not.toContain(TOKEN);
    expect(serialised).toContain("ANTHROPIC_API_KEY=[redacted ANTHROPIC_API_KEY]");
    expect(serialised).toContain('"key-[redacted ANTHROPIC_AUTH_TOKEN]":1');
  });

  it("redacts an object shared by two branches in both, and survives a cycle", () => {
    const shared = { text: KEY };
    const value: Record<string, unknown> = { a: shared, b: [shared] };
    const redacted = redactor.value(value);
    expect(JSON.stringify(redacted)).not.toContain(KEY);
    const cyclic: Record<string, unknown> = { text: TOKEN };
    cyclic.self = cyclic;
    const out = redactor.value(cyclic);
    expect(out.text).toBe("[redacted ANTHROPIC_AUTH_TOKEN]");
  });

  it("finds a secret holding a quote or backslash inside a value", () => {
    const odd = new SecretRedactor([{ name: "AWS_SECRET_ACCESS_KEY", value: 'ab"cd\\efgh12' }]);
    expect(JSON.stringify(odd.value({ out: 'x=ab"cd\\efgh12' }))).toBe(
      '{"out":"x=[redacted AWS_SECRET_ACCESS_KEY]"}',
    );
  });
});

const backends = useStoreBackends();
const SESSION: SessionKey = { projectKey: "proj", sessionId: "sess" };

describe.each(BACKEND_NAMES)("RedactingSessionStore over %s", (name) => {
  it("stores `env` output without the secrets, and other entries exactly as they came", async () => {
    const handle = await backends[name].open();
    const store = new RedactingSessionStore(handle.store, new SecretRedactor(secrets));
    const envOutput: SessionStoreEntry = {
      type: "user",
      uuid: "u-1",
      message: {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "t1", content: `HOME=/root\nANTHROPIC_API_KEY=${KEY}\n` },
        ],
      },
      toolUseResult: { stdout: `ANTHROPIC_AUTH_TOKEN=${TOKEN}`, stderr: "" },
    };
    const plain: SessionStoreEntry = { type: "assistant", uuid: "a-1", message: { content: "done" } };
    await store.append(SESSION, [envOutput, plain]);
    await store.append({ ...SESSION, subpath: "subagents/agent-1" }, [envOutput]);

    const rows = JSON.stringify(await handle.rows());
    expect(rows).not.toContain(KEY);
    expect(rows).not.toContain(TOKEN);
    expect(rows).not.toContain(KEY.slice(4, 12));
    const loaded = (await store.load(SESSION))!;
    expect(JSON.stringify(loaded[0])).toContain("ANTHROPIC_API_KEY=[redacted ANTHROPIC_API_KEY]");
    expect(JSON.stringify(loaded[0])).toContain("ANTHROPIC_AUTH_TOKEN=[redacted ANTHROPIC_AUTH_TOKEN]");
    expect(loaded[1]).toEqual(plain);
    const sub = JSON.stringify(await store.load({ ...SESSION, subpath: "subagents/agent-1" }));
    expect(sub).toContain("[redacted ANTHROPIC_API_KEY]");
    // The caller's entries are not changed: the SDK may still hold them.
    expect(JSON.stringify(envOutput)).toContain(KEY);
  });

  it("without secrets hands the entries through unchanged", async () => {
    const handle = await backends[name].open();
    const store = new RedactingSessionStore(handle.store, new SecretRedactor([]));
    const entry: SessionStoreEntry = {
      type: "user",
      uuid: "u-2",
      message: { content: `ANTHROPIC_API_KEY=${KEY}` },
    };
    await store.append(SESSION, [entry]);
    expect(await store.load(SESSION)).toEqual([entry]);
    expect(await store.listSubkeys(SESSION)).toEqual([]);
    expect(await store.projectKeysOf("sess")).toEqual(["proj"]);
  });
});
