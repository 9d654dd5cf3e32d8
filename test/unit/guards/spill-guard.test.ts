import { mkdir, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import type { HookJSONOutput, PostToolUseHookInput } from "@anthropic-ai/claude-agent-sdk";
import { beforeEach, describe, expect, it } from "vitest";
import {
  hasLongString,
  mapLongStrings,
  previewOf,
  sanitizeNamePart,
  SPILL_GUARD_MATCHER,
  spillGuard,
  spillGuards,
  spillReplacement,
  spillToolResponse,
  type SpillInfo,
  type SpillGuardOptions,
} from "../../../src/guards/spill-guard.js";
import { ConfigurationError } from "../../../src/errors.js";
import { SecretRedactor } from "../../../src/secret-redactor.js";
import { useTempDirs } from "../../support/temp-dir.js";

const long = (n: number, char = "x"): string => char.repeat(n);
const pathFor = (_text: string, field: readonly string[]): string =>
  `/spill/${field.join(".") || "root"}.txt`;
const transform = { threshold: 4000, previewChars: 400, locale: "en" as const, pathFor };

describe("spillToolResponse (pure)", () => {
  it("spills a long Bash stdout and keeps the shape", () => {
    const response = {
      stdout: long(5000),
      stderr: "warn",
      interrupted: false,
      isImage: false,
      noOutputExpected: false,
    };
    const { output, spills } = spillToolResponse(response, transform);
    expect(spills).toEqual([{ field: ["stdout"], path: "/spill/stdout.txt", chars: 5000 }]);
    const replaced = output as typeof response;
    expect(Object.keys(replaced)).toEqual(Object.keys(response));
    expect(replaced).toMatchObject({
      stderr: "warn",
      interrupted: false,
      isImage: false,
      noOutputExpected: false,
    });
    const [pointer, preview, ...rest] = replaced.stdout.split("\n");
    expect(pointer).toBe(
      "[Full text (5000 chars) saved to /spill/stdout.txt; read it with Read if needed. The beginning follows]",
    );
    expect(preview).toBe(long(400));
    expect(rest).toEqual([]);
    expect(response.stdout).toHaveLength(5000);
  });

  it("spills both Bash streams when both are long", () => {
    const { spills } = spillToolResponse(
      { stdout: long(4001), stderr: long(9000), interrupted: false, isImage: false },
      transform,
    );
    expect(spills.map((spill) => spill.field)).toEqual([["stdout"], ["stderr"]]);
  });

  it("walks into Read's nested file object", () => {
    const response = {
      type: "text",
      file: {
        filePath: "/repo/big.log",
        content: long(6000, "a"),
        numLines: 300,
        startLine: 1,
        totalLines: 300,
      },
    };
    const { output, spills } = spillToolResponse(response, { ...transform, locale: "zh" });
    expect(spills.map((spill) => spill.field)).toEqual([["file", "content"]]);
    const file = (output as typeof response).file;
    expect(file.filePath).toBe("/repo/big.log");
    expect(file.numLines).toBe(300);
    expect(
      file.content.startsWith(
        "[全文 6000 字符已存到 /spill/file.content.txt,需要时用 Read 读取;下面是前面一段]\n",
      ),
    ).toBe(true);
  });

  it("spills Grep content mode, and never touches lists (Glob and Grep filenames)", () => {
    const names = Array.from({ length: 2000 }, (_, i) => `src/some/deep/path/file-${i}.ts`);
    const glob = { filenames: names, durationMs: 16, numFiles: 2000, truncated: true };
    expect(spillToolResponse(glob, transform)).toEqual({ output: glob, spills: [] });
    expect(spillToolResponse(glob, transform).output).toBe(glob);
    const grep = { mode: "content", content: long(8000), numLines: 400, filenames: [long(5000)] };
    const { output, spills } = spillToolResponse(grep, transform);
    expect(spills.map((spill) => spill.field)).toEqual([["content"]]);
    expect((output as typeof grep).filenames).toBe(grep.filenames);
  });

  it("leaves image blocks inside arrays alone", () => {
    const response = {
      content: [{ type: "image", source: { type: "base64", data: long(50_000) } }],
      status: "completed",
    };
    expect(spillToolResponse(response, transform).output).toBe(response);
  });

  it("keeps strings at the threshold and spills the ones above it", () => {
    expect(spillToolResponse({ stdout: long(4000) }, transform).spills).toEqual([]);
    expect(spillToolResponse({ stdout: long(4001) }, transform).spills).toHaveLength(1);
    expect(spillToolResponse(long(4001), transform).spills).toEqual([
      { field: [], path: "/spill/root.txt", chars: 4001 },
    ]);
  });

  it("does not enter class instances and keeps non-strings", () => {
    const date = new Date(0);
    const response = { when: date, n: 5, nothing: null, flag: true };
    expect(mapLongStrings(response, 1, () => "never")).toBe(response);
  });

  it("hasLongString says yes exactly when mapLongStrings would replace something", () => {
    const nullProto = Object.assign(Object.create(null) as Record<string, unknown>, { text: long(11) });
    const cases: unknown[] = [
      long(10),
      long(11),
      { stdout: long(10), stderr: "", interrupted: false },
      { stdout: "", stderr: long(11) },
      { type: "text", file: { filePath: "/a", content: long(11), numLines: 1 } },
      { type: "text", file: { filePath: "/a", content: long(10), numLines: 1 } },
      { content: [{ type: "text", text: long(50) }] },
      { when: new Date(0), n: 5, nothing: null },
      nullProto,
      null,
      undefined,
      42,
      [long(50)],
    ];
    const verdicts = cases.map((value) => hasLongString(value, 10));
    expect(verdicts).toEqual(cases.map((value) => mapLongStrings(value, 10, () => "replaced") !== value));
    expect(verdicts).toEqual([
      false,
      true,
      false,
      true,
      true,
      false,
      false,
      false,
      true,
      false,
      false,
      false,
      false,
    ]);
  });

  it("cuts the preview without splitting a surrogate pair", () => {
    expect(previewOf("ab😀cd", 3)).toBe("ab");
    expect(previewOf("ab😀cd", 4)).toBe("ab😀");
    expect(previewOf("abc", 10)).toBe("abc");
    expect(spillReplacement("/p", "text", 0, "en")).toBe(SPILL_POINTER_EN("/p", 4));
  });

  it("sanitizes name parts", () => {
    expect(sanitizeNamePart("../../etc/passwd")).toBe("etc_passwd");
    expect(sanitizeNamePart("mcp__server__tool")).toBe("mcp__server__tool");
    expect(sanitizeNamePart("...")).toBe("x");
    expect(sanitizeNamePart(long(100, "a"))).toHaveLength(40);
  });
});

function SPILL_POINTER_EN(filePath: string, chars: number): string {
  return `[Full text (${chars} chars) saved to ${filePath}; read it with Read if needed. The beginning follows]`;
}

describe("spillGuard hook", () => {
  const temp = useTempDirs();
  let root: string;
  let dir: string;

  beforeEach(() => {
    root = temp.make("flower-spill-");
    dir = path.join(root, ".flower", "spill");
  });

  function postToolUse(
    tool: string,
    toolInput: unknown,
    toolResponse: unknown,
    agentId?: string,
  ): PostToolUseHookInput {
    return {
      session_id: "s",
      transcript_path: "/tmp/s.jsonl",
      cwd: root,
      hook_event_name: "PostToolUse",
      tool_name: tool,
      tool_input: toolInput,
      tool_response: toolResponse,
      tool_use_id: "toolu_1",
      ...(agentId === undefined ? {} : { agent_id: agentId }),
    };
  }

  async function run(
    options: Partial<SpillGuardOptions>,
    input: PostToolUseHookInput,
  ): Promise<HookJSONOutput> {
    const hook = spillGuard({ dir, locale: "en", ...options }).hooks[0]!;
    return hook(input, "toolu_1", { signal: new AbortController().signal });
  }

  function updated(output: HookJSONOutput): unknown {
    if (!("hookSpecificOutput" in output) || output.hookSpecificOutput?.hookEventName !== "PostToolUse")
      return undefined;
    return output.hookSpecificOutput.updatedToolOutput;
  }

  it("writes the full text to a file inside the spill dir and returns the replaced output", async () => {
    const seen: SpillInfo[] = [];
    const stdout = Array.from({ length: 500 }, (_, i) => `line ${i} ✓`).join("\n");
    const output = await run(
      { onSpill: (info) => seen.push(info) },
      postToolUse(
        "Bash",
        { command: "npm test" },
        { stdout, stderr: "", interrupted: false, isImage: false },
      ),
    );
    const replaced = updated(output) as { stdout: string; stderr: string };
    expect(replaced.stderr).toBe("");
    expect(seen).toHaveLength(1);
    const spill = seen[0]!;
    expect(spill).toMatchObject({ tool: "Bash", chars: stdout.length });
    expect(path.dirname(spill.path)).toBe(dir);
    expect(await readFile(spill.path, "utf8")).toBe(stdout);
    expect(replaced.stdout).toContain(spill.path);
    expect(replaced.stdout.split("\n")[1]).toBe("line 0 ✓");
    expect((await readdir(dir)).filter((name) => name.endsWith(".tmp"))).toEqual([]);
  });

  it("writes the spill file through `redact`, so a printed credential never reaches it", async () => {
    const seen: SpillInfo[] = [];
    const key = "sk-ant-api03-SPILLKEY-Lk9Jh8Gf7";
    const stdout = `${long(5000, "p")}\nANTHROPIC_API_KEY=${key}\n`;
    const redactor = new SecretRedactor([{ name: "ANTHROPIC_API_KEY", value: key }]);
    await run(
      { onSpill: (info) => seen.push(info), redact: (text) => redactor.text(text) },
      postToolUse("Bash", { command: "printenv" }, { stdout, stderr: "" }),
    );
    const written = await readFile(seen[0]!.path, "utf8");
    expect(written).not.toContain(key);
    expect(written).toBe(`${long(5000, "p")}\nANTHROPIC_API_KEY=[redacted ANTHROPIC_API_KEY]\n`);
    // The length reported is the original's (what the tool returned).
    expect(seen[0]!.chars).toBe(stdout.length);
    expect(() => spillGuard({ dir, locale: "en", redact: "no" as never })).toThrow(ConfigurationError);
  });

  it("returns nothing to change when nothing is long", async () => {
    expect(await run({}, postToolUse("Bash", { command: "ls" }, { stdout: "a\nb", stderr: "" }))).toEqual({});
  });

  it("never re-spills a Read of a spill file, however it is spelled", async () => {
    const first = await run({}, postToolUse("Bash", {}, { stdout: long(5000), stderr: "" }));
    const [name] = await readdir(dir);
    const spillFile = path.join(dir, name!);
    expect(updated(first)).toBeDefined();
    const content = {
      type: "text",
      file: { filePath: spillFile, content: long(5000), numLines: 1, startLine: 1, totalLines: 1 },
    };
    for (const filePath of [
      spillFile,
      path.join(".flower", "spill", name!),
      path.join(dir, "..", "spill", name!),
    ]) {
      expect(await run({}, postToolUse("Read", { file_path: filePath }, content))).toEqual({});
    }
    const alias = path.join(root, "alias");
    await symlink(dir, alias);
    expect(await run({}, postToolUse("Read", { file_path: path.join(alias, name!) }, content))).toEqual({});
    // A long Read elsewhere is spilled.
    expect(
      updated(await run({}, postToolUse("Read", { file_path: path.join(root, "big.txt") }, content))),
    ).toBeDefined();
  });

  it("leaves non-text Reads alone (images, PDFs)", async () => {
    const image = { type: "image", file: { base64: long(90_000), type: "image/png", originalSize: 70_000 } };
    expect(await run({}, postToolUse("Read", { file_path: path.join(root, "a.png") }, image))).toEqual({});
    expect(await run({}, postToolUse("Read", { file_path: path.join(root, "a.txt") }, long(9000)))).toEqual(
      {},
    );
  });

  it("spills subagents' results unless mainOnly", async () => {
    const input = postToolUse("Grep", {}, { mode: "content", content: long(5000) }, "agent-1");
    expect(updated(await run({}, input))).toBeDefined();
    expect(await run({ mainOnly: true }, input)).toEqual({});
  });

  it("makes unique, sanitized names even within one millisecond", async () => {
    const fixed = { now: () => new Date("2025-01-02T03:04:05.678Z"), randomId: () => "same" };
    const hook = spillGuard({ dir, locale: "en", _internal: fixed }).hooks[0]!;
    const signal = new AbortController().signal;
    await hook(postToolUse("../../evil/Tool", {}, { stdout: long(5000), stderr: long(5000) }), "t", {
      signal,
    });
    await hook(postToolUse("Bash", {}, { stdout: long(5000) }), "t", { signal });
    const names = (await readdir(dir)).sort();
    expect(names).toEqual([
      "20250102-030405678Z-0001-same-evil_Tool-stdout.txt",
      "20250102-030405678Z-0002-same-evil_Tool-stderr.txt",
      "20250102-030405678Z-0003-same-Bash-stdout.txt",
    ]);
    expect(await readdir(root)).toEqual([".flower"]);
  });

  it("gives the original output back when the spill cannot be written", async () => {
    await mkdir(path.join(root, ".flower"), { recursive: true });
    const blocker = path.join(root, ".flower", "spill");
    await rm(blocker, { recursive: true, force: true });
    await writeFile(blocker, "a file where the dir should be");
    expect(await run({}, postToolUse("Bash", {}, { stdout: long(5000), stderr: "" }))).toEqual({});
  });

  it("uses the seed's defaults and is not installed for null/0", () => {
    const matcher = spillGuard({ dir, locale: "zh" });
    expect(matcher.matcher).toBe(SPILL_GUARD_MATCHER);
    expect(SPILL_GUARD_MATCHER).toBe("Bash|Read|Grep|Glob|WebFetch|WebSearch");
    expect(spillGuards({ dir, locale: "zh", threshold: null })).toEqual([]);
    expect(spillGuards({ dir, locale: "zh", threshold: 0 })).toEqual([]);
    expect(spillGuards({ dir, locale: "zh" })).toHaveLength(1);
    expect(spillGuard({ dir, locale: "zh", matcher: "Bash" }).matcher).toBe("Bash");
  });

  it("validates its options", () => {
    expect(() => spillGuard({ dir, locale: "en", threshold: -1 })).toThrow(ConfigurationError);
    expect(() => spillGuard({ dir, locale: "en", threshold: 1.5 })).toThrow(/spillThreshold/);
    expect(() => spillGuard({ dir, locale: "en", threshold: null })).toThrow(/spillGuards/);
    expect(() => spillGuards({ dir, locale: "en", threshold: "4000" as unknown as number })).toThrow(
      ConfigurationError,
    );
    expect(() => spillGuard({ dir: "", locale: "en" })).toThrow(/dir/);
    expect(() => spillGuard({ dir, locale: "de" as "en" })).toThrow(/locale/);
    expect(() => spillGuard({ dir, locale: "en", previewChars: -5 })).toThrow(/previewChars/);
  });

  it("uses the 400-char preview by default", async () => {
    const output = await run(
      {},
      postToolUse("WebFetch", {}, { result: long(4500, "r"), code: 200, url: "https://x" }),
    );
    const result = (updated(output) as { result: string }).result;
    expect(result.split("\n")[1]).toBe(long(400, "r"));
  });
});
