/**
 * What a checkpoint commit says about itself. The message carries what another machine needs to judge
 * a checkpoint without the step's record: which call's result it holds (a checkpoint of a call whose
 * result never reached the transcript is dropped when the step goes on), and where in the run it was
 * taken. Git trailers, so `git log` in the shadow repository reads like a log of the run.
 */
import { createHash } from "node:crypto";
import { safeFileName } from "../fs/safe-file-name.js";

/**
 * When a checkpoint was taken:
 * - `start`: before a generation's first request (a new step, a successor, a session started afresh);
 * - `resume`: before a resumed session (continue, a retry, a guard round) goes on;
 * - `call`: after a main-thread tool call, before its result reaches the transcript;
 * - `end`: the step ended (done, failed, goal-not-met; a workflow pauses after a step's end);
 * - `stop`: the step was stopped (Ctrl-C, SIGTERM, a fleet's cancel or shutdown);
 * - `rewind`: the files just before a rewind put some of them back (a forced rewind loses nothing);
 * - `reset`: the chain moved back (calls whose results the transcript lacks, or a rewind): no new tree.
 */
export type CheckpointKind = "start" | "resume" | "call" | "end" | "stop" | "rewind" | "reset";

export const CHECKPOINT_KINDS: readonly CheckpointKind[] = [
  "start",
  "resume",
  "call",
  "end",
  "stop",
  "rewind",
  "reset",
];

export interface CheckpointMeta {
  kind: CheckpointKind;
  /** The run (the chain's name). */
  run: string;
  step: string;
  generation: number;
  /** The session the checkpoint belongs to (a `call`'s, the session about to be resumed). */
  session?: string | null;
  /** A `call` checkpoint's tool_use id: valid only while the session's transcript holds its result. */
  call?: string | null;
  /** The tool of a `call` checkpoint. */
  tool?: string | null;
}

const TRAILERS: Array<[keyof CheckpointMeta, string]> = [
  ["run", "Flower-Run"],
  ["step", "Flower-Step"],
  ["kind", "Flower-Kind"],
  ["generation", "Flower-Generation"],
  ["session", "Flower-Session"],
  ["call", "Flower-Call"],
  ["tool", "Flower-Tool"],
];

export function checkpointMessage(meta: CheckpointMeta): string {
  const what = meta.kind === "call" ? `${meta.tool ?? "call"} ${meta.call ?? ""}`.trim() : meta.kind;
  const lines = [`flower checkpoint: ${meta.step}, generation ${meta.generation}: ${what}`, ""];
  for (const [field, trailer] of TRAILERS) {
    const value = meta[field];
    if (value !== undefined && value !== null) lines.push(`${trailer}: ${oneLine(String(value))}`);
  }
  return `${lines.join("\n")}\n`;
}

/** The meta of a checkpoint's message; null for a commit that is not a checkpoint (the person's HEAD). */
export function parseCheckpointMessage(message: string): CheckpointMeta | null {
  const values = new Map<string, string>();
  for (const line of message.split("\n")) {
    const match = /^(Flower-[A-Za-z]+): (.*)$/.exec(line);
    if (match) values.set(match[1]!, match[2]!);
  }
  const kind = values.get("Flower-Kind") as CheckpointKind | undefined;
  const run = values.get("Flower-Run");
  const step = values.get("Flower-Step");
  if (kind === undefined || !CHECKPOINT_KINDS.includes(kind) || run === undefined || step === undefined)
    return null;
  return {
    kind,
    run,
    step,
    generation: Number(values.get("Flower-Generation") ?? 0),
    session: values.get("Flower-Session") ?? null,
    call: values.get("Flower-Call") ?? null,
    tool: values.get("Flower-Tool") ?? null,
  };
}

/** A file left out of a checkpoint as a secret, as its commit says it: root-relative, and why. */
export interface LeftOutSecret {
  path: string;
  sign: "name" | "private-key" | "credential";
}

const SIGNS: ReadonlyArray<LeftOutSecret["sign"]> = ["name", "private-key", "credential"];

/**
 * Trailers naming the secrets a submit left out (`Flower-Left-Out: name ".env"`): the run's first
 * checkpoint carries them, so a worker on any machine can say what the run was not given.
 */
export function leftOutTrailers(secrets: readonly LeftOutSecret[]): string {
  return secrets.map((secret) => `Flower-Left-Out: ${secret.sign} ${JSON.stringify(secret.path)}\n`).join("");
}

/** The secrets a checkpoint's message names as left out; none for any other message. */
export function parseLeftOut(message: string): LeftOutSecret[] {
  const found: LeftOutSecret[] = [];
  for (const line of message.split("\n")) {
    const match = /^Flower-Left-Out: ([a-z-]+) (".*")$/.exec(line);
    if (!match || !SIGNS.includes(match[1] as LeftOutSecret["sign"])) continue;
    try {
      const path: unknown = JSON.parse(match[2]!);
      if (typeof path === "string" && path !== "")
        found.push({ path, sign: match[1] as LeftOutSecret["sign"] });
    } catch {
      // Not a trailer of flower's: skipped.
    }
  }
  return found;
}

function oneLine(value: string): string {
  return value.replace(/\s+/g, " ").trim();
}

/**
 * A run's name as a part of a git ref: readable where it can be, unique always (two names that clean up
 * alike get different hashes). `flower/<run>` in the person's repository uses the run's own name when
 * git accepts it (refName).
 */
export function chainKey(run: string): string {
  const readable = safeFileName(run)
    .replace(/[^A-Za-z0-9._-]/g, "_")
    .replace(/\.+$/, "");
  const hash = createHash("sha256").update(run).digest("hex").slice(0, 8);
  return `${readable}-${hash}`;
}

/** Whether `name` can stand in a branch name as it is (letters, digits, `.`, `-`, `_`, no `..`). */
export function refSafe(name: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/.test(name) && !name.includes("..") && !name.endsWith(".lock");
}

/** The branch a run's work is handed back as: `flower/<run>`. */
export function branchOf(run: string): string {
  return `flower/${refSafe(run) ? run : chainKey(run)}`;
}
