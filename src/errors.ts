/**
 * One error base for the whole library. Every error carries a stable `code`, keeps the original error
 * as `cause`, and maps to one exit code of the `flower` command (`EXIT_CODES`, the only such table).
 */
export type FlowerErrorCode =
  | "configuration"
  | "manifest"
  | "step-failed"
  | "handoff"
  | "store"
  | "fake-model"
  | "usage"
  | "lease"
  | "work"
  | "work-refused";

export class FlowerError extends Error {
  readonly code: FlowerErrorCode;

  constructor(code: FlowerErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
  }
}

/** An option or argument has the wrong type or value. The message names the option and the value. */
export class ConfigurationError extends FlowerError {
  readonly option: string;
  readonly value: unknown;

  constructor(option: string, value: unknown, expected: string) {
    super("configuration", `Invalid option ${option}: got ${describeValue(value)}, expected ${expected}.`);
    this.option = option;
    this.value = value;
  }
}

/** manifest.json is unreadable, corrupt or belongs to something else; it is left untouched. */
export class ManifestError extends FlowerError {
  readonly path: string;

  constructor(path: string, message: string, options?: { cause?: unknown }) {
    super("manifest", `${message} (${path})`, options);
    this.path = path;
  }
}

/** A step used up its attempts or hit a guard such as maxGenerations. */
export class StepFailedError extends FlowerError {
  readonly step: string;

  constructor(step: string, message: string, options?: { cause?: unknown }) {
    super("step-failed", `Step "${step}" failed: ${message}`, options);
    this.step = step;
  }
}

/** The session store could not read or write. */
export class StoreError extends FlowerError {
  constructor(message: string, options?: { cause?: unknown }) {
    super("store", message, options);
  }
}

/** The offline model kit was misused: a policy threw, or it returned a reply the kit cannot send. */
export class FakeModelError extends FlowerError {
  constructor(message: string, options?: { cause?: unknown }) {
    super("fake-model", message, options);
  }
}

/** Wrong command-line usage: one line on stderr, exit code 2. */
export class UsageError extends FlowerError {
  constructor(message: string) {
    super("usage", message);
  }
}

/** The exit codes of the `flower` command. 130 is the shell's convention for "stopped by Ctrl-C". */
/** 130 and 143 are 128 + SIGINT and 128 + SIGTERM: what a shell reports for a process those signals ended. */
export const EXIT = { ok: 0, failed: 1, usage: 2, interrupted: 130, terminated: 143 } as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** Wrong usage or configuration is the caller's to fix (2); everything else failed while running (1). */
export const EXIT_CODES: Readonly<Record<FlowerErrorCode, ExitCode>> = {
  usage: EXIT.usage,
  configuration: EXIT.usage,
  manifest: EXIT.usage,
  lease: EXIT.usage,
  "step-failed": EXIT.failed,
  handoff: EXIT.failed,
  store: EXIT.failed,
  "fake-model": EXIT.failed,
  work: EXIT.failed,
  "work-refused": EXIT.usage,
};

/** Renders a value for an error message: short, and never a whole object dump. */
export function describeValue(value: unknown): string {
  if (value === undefined) return "undefined";
  if (value === null) return "null";
  if (typeof value === "string")
    return JSON.stringify(value.length > 80 ? `${value.slice(0, 77)}...` : value);
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint")
    return String(value);
  if (typeof value === "function") return "a function";
  if (Array.isArray(value)) return `an array of ${value.length}`;
  return `an object (${Object.prototype.toString.call(value).slice(8, -1)})`;
}

/** Who holds a step's lease. */
export interface LeaseHolder {
  pid: number;
  host: string;
  startedAt: string;
  heartbeatAt: string;
}

/**
 * Another driver holds the step: a second `run`/`continue` of a step that is running in another process,
 * another terminal, or this process. Its message names the holder; wait (`--wait`) or stop that one first.
 */
export class LeaseHeldError extends FlowerError {
  readonly step: string;
  readonly holder: LeaseHolder;

  constructor(step: string, holder: LeaseHolder) {
    super(
      "lease",
      `Step "${step}" is being driven by pid ${holder.pid} on ${holder.host} (since ${holder.startedAt}, last heartbeat ${holder.heartbeatAt}). Stop that one, or wait for it with --wait.`,
    );
    this.step = step;
    this.holder = holder;
  }
}

/**
 * `forget` of a fleet run that can still move (queued, paused, running), or of one of its steps: forget
 * deletes what is over, it stops nothing (as it refuses a step a live driver holds); cancel it first.
 */
export class FleetRunOpenError extends FlowerError {
  readonly run: string;

  constructor(run: string, message: string) {
    super("lease", message);
    this.run = run;
  }
}

/** This driver's lease was taken over (it was presumed dead): it must stop writing the step at once. */
export class LeaseLostError extends FlowerError {
  readonly step: string;

  constructor(step: string) {
    super("lease", `Step "${step}" lost its lease to another driver; this process stops driving it.`);
    this.step = step;
  }
}

/**
 * A run's work (the files its agent changed, kept in checkpoints) could not be kept, carried or handed
 * back: git failed, a base commit is missing, the store refused. The message says which and how to go on.
 */
export class WorkError extends FlowerError {
  constructor(message: string, options?: { cause?: unknown }) {
    super("work", message, options);
  }
}

/**
 * flower refused to change files because it would lose someone's work: a rewind over a person's edits,
 * an apply onto uncommitted changes. Nothing was changed; the message names the files and the way out.
 */
export class WorkRefusedError extends FlowerError {
  /** The files in the way, relative to the workspace or repository. */
  readonly paths: readonly string[];

  constructor(message: string, paths: readonly string[] = []) {
    super("work-refused", message);
    this.paths = paths;
  }
}

/**
 * Refuses a key an options object does not know: a typo (`windw`) would otherwise leave the option at its
 * default without a word. The error names the key (`prefix` + key, as `work.` for a nested object), its
 * value and the keys there are. List the keys with `satisfies Record<keyof Options, true>` so that the
 * compiler keeps the list and the interface together.
 */
export function refuseUnknownOptions(
  options: object,
  known: Readonly<Record<string, true>>,
  prefix = "",
): void {
  for (const key of Object.keys(options)) {
    if (!Object.hasOwn(known, key)) {
      const value = (options as Record<string, unknown>)[key];
      throw new ConfigurationError(
        `${prefix}${key}`,
        // A misspelt `url` or `store` must not print its password.
        typeof value === "string" ? value.replace(/(\/\/[^/:@\s]*:)[^@\s]*@/g, "$1***@") : value,
        `a known option (${Object.keys(known).join(", ")})`,
      );
    }
  }
}
