/**
 * The load-time rewrite as a layer over any `SessionStore` (SQLite, Postgres, a user's adapter). Rows are
 * never touched: `load()` reads the originals from the wrapped store and rewrites the copy that is fed back
 * on resume (what `load()` returns is exactly what the model gets). This layer owns trimming long
 * tool results into `<workspace>/.flower/spill/`; the pruning layer above adds expiry, denials and
 * disconnect remnants to the same single rewrite. Everything else is passed through unchanged.
 *
 * With a blob store (a Postgres backend brings one) every spill file is also kept there, and spill files a
 * loaded transcript points at but this workspace lacks are written back from it: a step continued on
 * another machine finds its pointers resolving.
 */
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import type { SessionKey, SessionStore, SessionStoreEntry } from "@anthropic-ai/claude-agent-sdk";
import { DEFAULTS } from "../defaults.js";
import { ConfigurationError, StoreError, refuseUnknownOptions } from "../errors.js";
import { writeFileAtomically } from "../fs/atomic-write.js";
import { isLocale, type Locale } from "../locale/locale.js";
import type { BlobStore } from "./blob-store.js";
import { ForwardingSessionStore } from "./forwarding-store.js";
import type { RewriteReport } from "./passes/rewrite-report.js";
import { rewriteTranscript, type RewriteOptions } from "./passes/rewrite.js";
import type { SpillFile } from "./passes/trim-results.js";
import { keepSpills, restoreSpills } from "./spill-restore.js";
import { TrimPolicy } from "./trim-policy.js";

export type { RewriteReport } from "./passes/rewrite-report.js";

export interface TrimmingSessionStoreOptions {
  /**
   * The store to wrap (e.g. `new SqliteSessionStore({ path })`). Closing the layer closes it. The layer
   * opens no database itself: storage/ is the one place that does.
   */
  inner: SessionStore;
  /** The agent's workspace; trimmed results go to `<workspace>/.flower/spill/`. */
  workspace: string;
  /**
   * Trim long tool results on load. `true` = `new TrimPolicy()`.
   * @default false
   */
  trim?: boolean | TrimPolicy;
  /**
   * Language of the texts that replace history. The caller resolves it (the Runtime reads FLOWER_LANG/LANG
   * at its door); the store never reads the environment.
   * @default "en"
   */
  locale?: Locale;
  /**
   * Where spill files are kept for other machines; null keeps them only as local files.
   * @default the wrapped store's `blobs` if it has one (PostgresSessionStore), else null
   */
  blobs?: BlobStore | null;
  /** Called after every non-null `load()` (main and subagent transcripts) with what was rewritten. */
  onLoad?: (key: SessionKey, report: RewriteReport) => void;
}

/** Every option name, checked against TrimmingSessionStoreOptions by the compiler. */
export const TRIMMING_OPTION_NAMES = {
  inner: true,
  workspace: true,
  trim: true,
  locale: true,
  blobs: true,
  onLoad: true,
} as const satisfies Record<keyof TrimmingSessionStoreOptions, true>;

export class TrimmingSessionStore extends ForwardingSessionStore {
  readonly workspace: string;
  readonly trim: TrimPolicy | null;
  readonly locale: Locale;
  readonly blobs: BlobStore | null;
  readonly #onLoad: ((key: SessionKey, report: RewriteReport) => void) | undefined;

  constructor(options: TrimmingSessionStoreOptions) {
    // A subclass (PruningSessionStore) has options of its own and checks the names itself.
    validateTrimmingOptions(options, new.target === TrimmingSessionStore ? TRIMMING_OPTION_NAMES : null);
    super(options.inner);
    this.workspace = resolve(options.workspace);
    this.trim = options.trim === true ? new TrimPolicy() : options.trim || null;
    this.locale = options.locale ?? "en";
    this.blobs = options.blobs === undefined ? blobsOf(this.inner) : options.blobs;
    this.#onLoad = options.onLoad;
  }

  /** `<workspace>/.flower/spill`: inside the workspace, so the agent's Read can reach the files. */
  get spillDir(): string {
    return join(this.workspace, DEFAULTS.workbenchDir, "spill");
  }

  override async load(key: SessionKey): Promise<SessionStoreEntry[] | null> {
    const original = await this.inner.load(key);
    if (original === null) return null;
    const options = this.rewriteOptions();
    let result = rewriteTranscript(original, options);
    try {
      writeSpills(result.spills);
      if (this.blobs !== null) await keepSpills(result.spills, this.blobs);
    } catch {
      // A pointer to a file that does not exist (here, or on the next machine) would lose the result for
      // good; resuming untrimmed loses nothing.
      result = rewriteTranscript(original, { ...options, trim: null });
    }
    if (this.blobs !== null) {
      try {
        await restoreSpills(result.entries, this.spillDir, this.blobs);
      } catch (error) {
        throw new StoreError(
          `Cannot restore spill files into ${this.spillDir}: ${(error as Error).message}`,
          { cause: error },
        );
      }
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

/** A store that keeps blobs says so with a `blobs` property (PostgresSessionStore does). */
function blobsOf(store: SessionStore): BlobStore | null {
  const blobs = (store as { blobs?: unknown }).blobs;
  if (typeof blobs !== "object" || blobs === null) return null;
  const candidate = blobs as Partial<BlobStore>;
  return typeof candidate.put === "function" && typeof candidate.get === "function"
    ? (candidate as BlobStore)
    : null;
}

function validateTrimmingOptions(
  options: TrimmingSessionStoreOptions,
  known: Readonly<Record<string, true>> | null,
): void {
  if (typeof options !== "object" || options === null)
    throw new ConfigurationError("options", options, "an options object");
  const { inner, workspace, trim, locale, blobs, onLoad } = options;
  // The layer used to open a SQLite file given as `path`; a caller still passing one learns the new form.
  const path = (options as { path?: unknown }).path;
  if (path !== undefined)
    throw new ConfigurationError("path", path, "absent: give inner: new SqliteSessionStore({ path })");
  if (known !== null) refuseUnknownOptions(options, known);
  if (
    typeof inner !== "object" ||
    inner === null ||
    typeof inner.append !== "function" ||
    typeof inner.load !== "function"
  )
    throw new ConfigurationError("inner", inner, "a SessionStore (with append and load)");
  if (typeof workspace !== "string" || workspace.trim() === "")
    throw new ConfigurationError("workspace", workspace, "a directory path");
  if (trim !== undefined && typeof trim !== "boolean" && !(trim instanceof TrimPolicy))
    throw new ConfigurationError("trim", trim, "a boolean or a TrimPolicy");
  if (locale !== undefined && !isLocale(locale))
    throw new ConfigurationError("locale", locale, '"zh" or "en"');
  if (
    blobs !== undefined &&
    blobs !== null &&
    (typeof blobs !== "object" || typeof blobs.put !== "function" || typeof blobs.get !== "function")
  )
    throw new ConfigurationError("blobs", blobs, "a BlobStore (put and get) or null");
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
