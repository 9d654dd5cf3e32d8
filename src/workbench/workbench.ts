/**
 * Layer two of the context economy: the workbench, `.flower/` under the workspace. Scripts, artifacts
 * and notes live on disk and travel with the workspace; `INDEX.md` lists them with one line each, and
 * `promptBlock()` puts the three rules and that list (when it lists anything) into the coordinator's
 * system prompt.
 *
 * This cures "write it again every time": compact clears the context but not the disk, nor the index
 * in the system prompt. Measured over one 10.4-hour run: 61 scripts written 95 times and run 331 times,
 * 92% run more than once, none written and never run.
 */
import { readFileSync, realpathSync } from "node:fs";
import { lstat, readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { DEFAULTS } from "../defaults.js";
import { writeFileAtomicallyAsync } from "../fs/atomic-write.js";
import { makeIgnoredDirectoryAsync, makePrivateDirectoryAsync } from "../fs/private-files.js";
import { ConfigurationError, refuseUnknownOptions } from "../errors.js";
import { isLocale, type Locale } from "../locale/locale.js";
import { describeFile } from "./describe-file.js";
import { WORKBENCH_TEXT } from "./workbench-text.js";

export interface WorkbenchOptions {
  /** The workspace the agents work in; the workbench is `<workspace>/.flower/`. */
  workspace: string;
  /**
   * Language of INDEX.md and the prompt block. The environment is not consulted here: the Runtime and
   * the CLI resolve the locale and pass it in.
   * @default "en"
   */
  locale?: Locale;
  /**
   * INDEX.md lists at most this many files, newest first.
   * @default 40
   */
  maxEntries?: number;
}

export interface WorkbenchEntry {
  /** Path relative to the workbench, with `/` separators (`scripts/count.py`). */
  path: string;
  /** One line: a script's first comment, a text's first heading or line, a binary's size. */
  description: string;
  mtimeMs: number;
  size: number;
  binary: boolean;
}

export const INDEX_FILE = "INDEX.md";

/** A runaway artifacts tree must not stall every Write hook. */
const MAX_SCANNED_FILES = 20_000;

function isInside(dir: string, candidate: string): boolean {
  const relative = path.relative(dir, candidate);
  return relative !== "" && !relative.startsWith("..") && !path.isAbsolute(relative);
}

export class Workbench {
  readonly workspace: string;
  /** `<workspace>/.flower` */
  readonly dir: string;
  /** Reusable scripts, each with a first comment line saying what it does. */
  readonly scripts: string;
  /** Long outputs; replies carry only their path + conclusion. */
  readonly artifacts: string;
  /** Notes and handoffs (`notes/archive/` is not indexed). */
  readonly notes: string;
  /** The spill guard's files; not indexed. */
  readonly spill: string;
  readonly indexPath: string;
  readonly locale: Locale;
  readonly maxEntries: number;
  private lastIndex: string | null = null;

  constructor(options: WorkbenchOptions) {
    if (typeof options !== "object" || options === null) {
      throw new ConfigurationError("workbench options", options, "an object { workspace }");
    }
    refuseUnknownOptions(options, {
      workspace: true,
      locale: true,
      maxEntries: true,
    } satisfies Record<keyof WorkbenchOptions, true>);
    const { workspace, locale, maxEntries = DEFAULTS.indexMaxEntries } = options;
    if (typeof workspace !== "string" || workspace === "") {
      throw new ConfigurationError("workspace", workspace, "a directory path");
    }
    if (locale !== undefined && !isLocale(locale))
      throw new ConfigurationError("locale", locale, '"zh" or "en"');
    if (!Number.isInteger(maxEntries) || maxEntries < 1) {
      throw new ConfigurationError("maxEntries", maxEntries, "a positive integer");
    }
    this.workspace = path.resolve(workspace);
    this.dir = path.join(this.workspace, DEFAULTS.workbenchDir);
    this.scripts = path.join(this.dir, "scripts");
    this.artifacts = path.join(this.dir, "artifacts");
    this.notes = path.join(this.dir, "notes");
    this.spill = path.join(this.dir, "spill");
    this.indexPath = path.join(this.dir, INDEX_FILE);
    this.locale = locale ?? "en";
    this.maxEntries = maxEntries;
  }

  /** Creates `.flower/` and its four folders; idempotent. */
  async ensure(): Promise<void> {
    // `.flower/` first, so that a folder flower creates gets its own `.gitignore`.
    await makeIgnoredDirectoryAsync(this.dir);
    for (const folder of [this.scripts, this.artifacts, this.notes, this.spill]) {
      await makePrivateDirectoryAsync(folder);
    }
  }

  /**
   * Is `filePath` (absolute, or relative to the workspace) inside the workbench? Symlinked spellings
   * count too, so a Write through an alias still refreshes the index.
   */
  contains(filePath: string): boolean {
    const target = path.resolve(this.workspace, filePath);
    if (isInside(this.dir, target)) return true;
    // The index guard asks this on every Write/Edit of the run, subagents' included, while the CLI waits:
    // the native realpath is one system call where the JS one lstat()s each path component.
    try {
      const realDir = realpathSync.native(this.dir);
      let probe = target;
      // The file may be new or deleted: resolve the nearest existing ancestor.
      const rest: string[] = [];
      for (;;) {
        try {
          const real = realpathSync.native(probe);
          return isInside(realDir, path.join(real, ...rest));
        } catch {
          const parent = path.dirname(probe);
          if (parent === probe) return false;
          rest.unshift(path.basename(probe));
          probe = parent;
        }
      }
    } catch {
      return false;
    }
  }

  /** Lists the indexed files, newest first, without writing anything. */
  async entries(): Promise<{ entries: WorkbenchEntry[]; total: number }> {
    const files: Array<{ relative: string; mtimeMs: number; size: number }> = [];
    const walk = async (folder: string): Promise<void> => {
      let names;
      try {
        names = await readdir(folder, { withFileTypes: true });
      } catch {
        return;
      }
      for (const entry of names) {
        if (files.length >= MAX_SCANNED_FILES) return;
        // Dotfiles include the atomic writes' temporaries; symlinks could lead out of the workbench.
        if (entry.name.startsWith(".") || entry.isSymbolicLink()) continue;
        const full = path.join(folder, entry.name);
        const relative = path.relative(this.dir, full).split(path.sep).join("/");
        if (relative === INDEX_FILE || relative === "spill" || relative === "notes/archive") continue;
        if (entry.isDirectory()) await walk(full);
        else if (entry.isFile()) {
          try {
            const stat = await lstat(full);
            files.push({ relative, mtimeMs: stat.mtimeMs, size: stat.size });
          } catch {
            // Deleted between readdir and stat: not there, not listed.
          }
        }
      }
    };
    await walk(this.dir);
    files.sort(
      (a, b) => b.mtimeMs - a.mtimeMs || (a.relative < b.relative ? -1 : a.relative > b.relative ? 1 : 0),
    );
    const newest = files.slice(0, this.maxEntries);
    const entries: WorkbenchEntry[] = [];
    for (const file of newest) {
      const described = await describeFile(this.dir, file.relative, file.size, this.locale);
      entries.push({ path: file.relative, mtimeMs: file.mtimeMs, size: file.size, ...described });
    }
    return { entries, total: files.length };
  }

  /** The index as markdown: title, then one line per file. */
  renderIndex(entries: readonly WorkbenchEntry[], total: number): string {
    const text = WORKBENCH_TEXT[this.locale];
    const lines = [text.indexTitle, ""];
    if (entries.length === 0) lines.push(text.emptyIndex);
    for (const entry of entries) lines.push(`- ${entry.path} — ${entry.description}`);
    if (total > entries.length) lines.push("", text.truncated(total, entries.length));
    return `${lines.join("\n")}\n`;
  }

  /**
   * Regenerates INDEX.md (atomically; untouched when nothing changed) and returns the listed entries.
   * Called by the index guard after a Write/Edit inside the workbench and before every step.
   */
  async refresh(): Promise<WorkbenchEntry[]> {
    await makeIgnoredDirectoryAsync(this.dir);
    const { entries, total } = await this.entries();
    const index = this.renderIndex(entries, total);
    this.lastIndex = index;
    let current: string | null;
    try {
      current = await readFile(this.indexPath, "utf8");
    } catch {
      current = null;
    }
    if (current !== index) {
      await writeFileAtomicallyAsync(this.indexPath, index, { checkpoint: "index-write" });
    }
    return entries;
  }

  /**
   * The three rules and the index, for the coordinator's system prompt (appended, never replacing it).
   * An index that lists no file is left out: it would tell the model nothing and be paid for on every
   * main-thread request of the session.
   */
  promptBlock(): string {
    const text = WORKBENCH_TEXT[this.locale];
    const index = this.lastIndex ?? this.readIndexFile() ?? this.renderIndex([], 0);
    const rules = text.rules.map((rule, i) => `${i + 1}. ${rule}`);
    const block = [text.promptTitle, text.location(this.dir), ...rules];
    if (index !== this.renderIndex([], 0)) block.push("", index.trimEnd());
    return block.join("\n");
  }

  private readIndexFile(): string | null {
    try {
      return readFileSync(this.indexPath, "utf8");
    } catch {
      return null;
    }
  }
}
