/**
 * The SQLite store plus the load-time rewrite. Rows are never touched: `load()` reads the originals and
 * rewrites the copy that is fed back on resume (what `load()` returns is exactly what the model gets,
 * facts §4). This layer owns trimming long tool results into `<workspace>/.flower/spill/`; the pruning
 * layer above adds expiry, denials and disconnect remnants to the same single rewrite.
 */
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import type { SessionKey, SessionStoreEntry } from "@anthropic-ai/claude-agent-sdk";
import { DEFAULTS } from "../defaults.js";
import { ConfigurationError } from "../errors.js";
import { writeFileAtomically } from "../fs/atomic-write.js";
import { isLocale, resolveLocale, type Locale } from "../locale/locale.js";
import type { RewriteReport } from "./passes/report.js";
import { rewriteTranscript, type RewriteOptions } from "./passes/rewrite.js";
import type { SpillFile } from "./passes/trim-results.js";
import { SqliteSessionStore, type SqliteSessionStoreOptions } from "./sqlite-store.js";
import { TrimPolicy } from "./trim-policy.js";

export type { RewriteReport } from "./passes/report.js";

export interface TrimmingSessionStoreOptions extends SqliteSessionStoreOptions {
  /** The agent's workspace; trimmed results go to `<workspace>/.flower/spill/`. */
  workspace: string;
  /**
   * Trim long tool results on load. `true` = `new TrimPolicy()`.
   * @default false
   */
  trim?: boolean | TrimPolicy;
  /**
   * Language of the texts that replace history. @default resolveLocale() (FLOWER_LANG, LANG, else en)
   */
  locale?: Locale;
  /** Called after every non-null `load()` (main and subagent transcripts) with what was rewritten. */
  onLoad?: (key: SessionKey, report: RewriteReport) => void;
}

export class TrimmingSessionStore extends SqliteSessionStore {
  readonly workspace: string;
  readonly trim: TrimPolicy | null;
  readonly locale: Locale;
  readonly #onLoad: ((key: SessionKey, report: RewriteReport) => void) | undefined;

  constructor(options: TrimmingSessionStoreOptions) {
    validateTrimmingOptions(options);
    super(options);
    this.workspace = resolve(options.workspace);
    this.trim = options.trim === true ? new TrimPolicy() : options.trim || null;
    this.locale = resolveLocale(options.locale);
    this.#onLoad = options.onLoad;
  }

  /** `<workspace>/.flower/spill`: inside the workspace, so the agent's Read can reach the files. */
  get spillDir(): string {
    return join(this.workspace, DEFAULTS.workbenchDir, "spill");
  }

  override async load(key: SessionKey): Promise<SessionStoreEntry[] | null> {
    const original = await super.load(key);
    if (original === null) return null;
    const options = this.rewriteOptions();
    let result = rewriteTranscript(original, options);
    try {
      writeSpills(result.spills);
    } catch {
      // A pointer to a file that does not exist would lose the result for good; resuming untrimmed loses nothing.
      result = rewriteTranscript(original, { ...options, trim: null });
    }
    this.#onLoad?.(key, result.report);
    return result.entries;
  }

  /** What the rewrite in `load()` does; the pruning layer extends it. */
  protected rewriteOptions(): RewriteOptions {
    const { trim } = this;
    return {
      locale: this.locale,
      expire: null,
      denials: null,
      disconnects: false,
      trim:
        trim === null
          ? null
          : { keepRecent: trim.keepRecent, minChars: trim.minChars, spillDir: this.spillDir },
    };
  }
}

function validateTrimmingOptions(options: TrimmingSessionStoreOptions): void {
  if (typeof options !== "object" || options === null)
    throw new ConfigurationError("options", options, "an options object");
  const { workspace, trim, locale, onLoad } = options;
  if (typeof workspace !== "string" || workspace.trim() === "")
    throw new ConfigurationError("workspace", workspace, "a directory path");
  if (trim !== undefined && typeof trim !== "boolean" && !(trim instanceof TrimPolicy))
    throw new ConfigurationError("trim", trim, "a boolean or a TrimPolicy");
  if (locale !== undefined && !isLocale(locale))
    throw new ConfigurationError("locale", locale, '"zh" or "en"');
  if (onLoad !== undefined && typeof onLoad !== "function")
    throw new ConfigurationError("onLoad", onLoad, "a function");
}

/**
 * Writes each spill file atomically (temp file + rename), so a reader never sees half a file. Names are
 * content hashes: an existing file already holds exactly this content and is left alone.
 */
export function writeSpills(spills: readonly SpillFile[]): void {
  for (const spill of spills) {
    if (existsSync(spill.path)) continue;
    writeFileAtomically(spill.path, spill.content);
  }
}
