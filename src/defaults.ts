/**
 * Every default that changes behaviour, in one place, each with the reason for it.
 */
export const DEFAULTS = {
  /** The original default window: the gateway ran `claude-opus-5[1m]`; guessing 200k cut long work into shreds 5× too often. */
  window: 1_000_000,
  /** Haiku-class models without a `1m` marker have 200k. */
  haikuWindow: 200_000,
  /** Auto-compact fires at window − 33k; the handoff must come first, and writing it costs one more turn. */
  headroom: 50_000,
  /**
   * The switch lets the calls of the crossing response finish (one more boundary) only while the
   * context is below window − this margin: their results (a subagent's report, reads the spill guard
   * caps near 1k tokens each), one more response and the writing turn (its prompt and a handoff of a
   * few thousand tokens) must still fit, and auto-compact is off. 25k is half the default headroom:
   * calls issued in its first half finish, calls issued closer to the window are cut and named.
   */
  inflightMargin: 25_000,
  /**
   * The loop brake (generation-switch.ts): a generation that reaches the handoff line within this many
   * turns did no work. Two in a row — or a successor whose start-up context is already at the line — is
   * a line below the role's start-up floor (docs/handoffs.md), and the step stops saying so; a long healthy
   * job, whose generations work for dozens of turns, never meets it.
   */
  loopTurns: 2,
  /**
   * The drift watch (runtime/judge/drift-watch.ts): after this many generations in a row with no newly passing
   * check and no changed file, the step pauses at the handoff for a person. Three: one idle generation
   * is a plan being written, two can be a hard bug being read; three is an hour of a night going nowhere.
   * 0 turns the watch off.
   */
  driftAfter: 3,
  /**
   * The cost rule's guess of a handoff document in output tokens (`HandoffPolicy({ rule: "cost" })`):
   * a handoff as the prompt asks for it runs to a few thousand characters; guessing long makes the rule
   * switch later.
   */
  handoffOutputTokens: 2_000,
  /** Below this a handoff cannot even be written. */
  handoffFloor: 10_000,
  /**
   * The writing turn asks once more for weak sections only when its context plus this stays within the
   * window: the follow-up resends the session and adds a short prompt and answer (a few hundred tokens).
   */
  followUpRoom: 10_000,
  /** The near warning comes this much before the handoff line. */
  warnBefore: 20_000,
  warnFloor: 1_000,
  /** Measured start-up floor of a coordinator (system prompt + workbench index). */
  coordinatorStartupFloor: 34_000,
  /**
   * The smallest window the CLI takes (--window): below it the handoff line (window − headroom) sits at or
   * under a coordinator's start-up floor, so every generation would hand off before it did anything (until
   * maxGenerations ends the step). 34k + 50k = 84k, rounded up. Below it the CLI refuses; the library
   * takes any window (the offline demo runs small ones against a scripted model).
   */
  minimumWindow: 85_000,
  /**
   * From here a window is comfortable: the handoff line is at least four start-up floors, so a generation
   * spends at most a quarter of its room on starting. 4 × 34k + 50k = 186k. Between `minimumWindow` and
   * this the CLI warns once; every current Claude model's real window (200k and up) is above it.
   */
  comfortableWindow: 186_000,
  /** Characters of the original task kept in a degraded handoff's `scene`. */
  degradedTaskChars: 1_200,
  /** Tool results longer than this are spilled to disk (chars). */
  spillThreshold: 4_000,
  /** A spill pointer keeps this many leading characters in context. */
  spillPreviewChars: 400,
  /** INDEX.md lists at most this many workbench files, newest first. */
  indexMaxEntries: 40,
  /** The newest ephemeral command results kept when a session is loaded for resume. */
  keepEphemeral: 6,
  /** The newest denial stays: it is a valid signal and stops the model retrying the same call. */
  keepDenials: 1,
  /** Trim: the newest tool results kept verbatim. */
  trimKeepRecent: 20,
  /** Trim: results at least this long are spilled on load. */
  trimMinChars: 2_000,
  /** Failed attempts before a step gives up. Handoffs never count. */
  maxAttempts: 3,
  /**
   * The CLI retries API errors itself 10 times with backoff up to ~40 s (≈185 s to give up). The
   * runtime owns the retry policy, so the CLI gets only a couple of quick retries.
   */
  cliMaxRetries: 2,
  /**
   * With the spill guard on, the CLI is told to hand Bash output inline up to its maximum (default
   * 30000, clamp 128000): otherwise it cuts stdout at 30000 before the hook sees it and keeps the rest
   * in its own file, and the spill file would hold only a part of the output.
   */
  cliBashInlineMaxChars: 128_000,
  /**
   * Files larger than this are left out of a run's checkpoints (and named in its record): a build
   * artifact or a data set in the tree would make every checkpoint, and a shared store's copy of it, as
   * large as the file, and git handles such files poorly. Source files are far below it.
   */
  checkpointMaxFileBytes: 10 * 1024 * 1024,
  /**
   * A stop (Ctrl-C, SIGTERM, a fleet's cancel) waits this long for the reply in flight — it is paid for,
   * and it reaches the transcript a continue resumes — then cuts it. Under the CLI's 8 s before it quits
   * on SIGTERM (docker sends SIGKILL after 10 s), so the stop is recorded first.
   */
  stopGraceMs: 6_000,
  /**
   * A notifier (`--notify`: a command or a webhook) gets this long to answer; then its command's process
   * group is ended, its request aborted, and that is said once. The run was recorded before it is told,
   * so a hung notifier only delays the command's exit, by at most this (and `notifyKillGraceMs`); 10 s
   * is ample for a webhook or a desktop notification, and short enough that a hang is not mistaken for
   * flower's own.
   */
  notifyTimeoutMs: 10_000,
  /** After SIGTERM, a notifier command's process group gets this long before SIGKILL. */
  notifyKillGraceMs: 1_000,
  /** Where `run` keeps records and sessions when no `--run-dir`/`runDir` is given (storage/files.ts resolves it). */
  runDir: "runs",
  /** The workbench folder under the workspace. */
  workbenchDir: ".flower",
  /**
   * Leases (records/lease.ts): a holder refreshes its heartbeat this often, and a lease whose heartbeat is
   * older than `staleAfterMs` is presumed dead. Six missed heartbeats: a loaded machine or a slow store
   * does not lose its step, a vanished machine's step is taken over within half a minute.
   */
  leaseTiming: { heartbeatMs: 5_000, staleAfterMs: 30_000 },
  /**
   * Recall (session-layers/recall-search.ts): one answer of the search over earlier generations' transcripts is
   * at most this many characters, headers and notes included. The spill guard's threshold: an answer
   * never puts more into a context than a tool output the guard lets through (MCP results are not
   * spilled), and a handoff's successor that asks twice still starts small.
   */
  recallMaxChars: 4_000,
  /**
   * One passage of a recall answer: the lines around the match, enough for a path, a command and a line
   * of its output; six such passages fit in `recallMaxChars` with their headers.
   */
  recallPassageChars: 500,
  /** Passages shown per answer, however short: more is a list to read, not an answer. */
  recallMaxPassages: 6,
} as const;

/** The goal guard's defaults (src/goal/). */
export const GOAL_DEFAULTS = {
  /** Failed guard rounds before the work step ends `goal-not-met`, never silently "done". */
  guardRounds: 3,
  /** Per-check timeout: long enough for a real test suite, short enough that a hang ends the round. */
  checkTimeoutMs: 120_000,
  /** After SIGTERM a check's process group gets this long to exit before SIGKILL. */
  killGraceMs: 2_000,
  /**
   * A check's output kept in memory and in its log: the first `logHeadBytes` and the last
   * `logTailBytes`. A test suite that prints 500 MB must not take the runtime's memory with it; the
   * failure is nearly always at the end, and the start says what ran.
   */
  logHeadBytes: 512 * 1024,
  logTailBytes: 256 * 1024,
  /** The tail a coordinator sees per failing check: this many lines, at most `tailMaxChars`. */
  tailLines: 20,
  tailMaxChars: 2_000,
  /**
   * Runs of the checks whose logs are kept per check (`goal-check-<n>.run-<r>.log`): every round of a
   * default guard (4 runs) and of a `continue` after it fits, and a check's logs stay below
   * 10 × 768 KB. Older runs' logs are removed; their record keeps the exit code and the last lines.
   */
  keptRunLogs: 10,
} as const;
