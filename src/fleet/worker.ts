/**
 * A fleet worker (`flower worker`, or `new Worker({ store })` in a team's own service): takes runs off
 * the queue while it has a free slot and drives each through drive-run.ts.
 *
 * One tick a second does three things, in this order:
 * - heartbeat: one UPDATE stamps every run this worker holds and answers which of them a person asked
 *   to cancel, and which are no longer its own (taken back after it was presumed dead): both are stopped
 *   at their next message boundary (rt.stop(), the path Ctrl-C takes);
 * - watch: a run held by a worker that is gone (on this machine its pid is dead; elsewhere its heartbeat
 *   is older than the lease's staleAfterMs) goes back to the queue through pg-boss's retry (`fail`), so
 *   the next free worker continues it; its step's lease is taken over the same way by that worker;
 * - fetch: as many jobs as there are free slots.
 * `stop()` (SIGTERM, Ctrl-C) stops every run at its next boundary, gives each back to the queue with a
 * new job, and closes.
 */
import { randomUUID } from "node:crypto";
import { FINISHED, holderAsLease, type FleetRun, type FleetStatus } from "../records/fleet-run.js";
import { DEFAULT_LEASE_TIMING, ownerGone } from "../records/lease.js";
import { currentProcess, type ProcessIdentity } from "../records/process-identity.js";
import type { Runtime } from "../runtime/runtime.js";
import { fleetStoreSpec, openFleetStore, type FleetStore } from "../storage/fleet-store.js";
import { RETRY_LIMIT } from "../storage/postgres/run-queue.js";
import { storeUrl, type PostgresStoreSpec, type StoreSpec } from "../storage/store-spec.js";
import { ConfigurationError, refuseUnknownOptions } from "../errors.js";
import { RUNTIME_OPTION_NAMES } from "../runtime/options.js";
import { utcDay } from "../records/run-spend.js";
import {
  driveRun,
  runDirOf,
  type DriveBudgets,
  type DriveOutcome,
  type RunRuntimeOptions,
} from "./drive-run.js";
import { clearOverRuns } from "./run-leftovers.js";
import { FleetEvents, type FleetEvent } from "./fleet-events.js";
import { endOf, settle } from "./settle.js";
import { removeRunWorkspace } from "../checkpoints/run-workspace.js";
import { resolveLocale, type Locale } from "../locale/locale.js";
import {
  Notifier,
  NOTIFY_EXPECTED,
  parseNotifyTarget,
  shownTarget,
  type NotifyTarget,
} from "../notify/index.js";
import { defaultCommandFor, fleetNotice, type FleetCommandFor } from "./fleet-notice.js";

export interface FleetWorkerOptions {
  /**
   * The shared store: `postgres://user:password@host:port/database` (optionally `?schema=name`), or its
   * spec parsed already (the CLI's `--store`). Parsed once here; each run's Runtime gets the spec.
   */
  store: string | StoreSpec;
  /** Runs driven at once. @default 1 */
  concurrency?: number;
  /** Each run's Runtime: workspace (required), runDir, env, model, … (not the store, not onEvent). */
  runtime: RunRuntimeOptions;
  /** How often the worker beats, watches and fetches (ms). @default 1000 */
  pollMs?: number;
  /**
   * Told of every run this worker drives when it pauses for approval or ends (done, goal not met,
   * failed): a shell command (the JSON on stdin and in FLOWER_NOTIFY_* variables) or an http(s) URL (a
   * POST of the JSON). A run's own `notify` (submit) is told as well. A notifier that fails or hangs
   * never holds the run or the worker's slot; it is said once per run, as a `notify-failed` event.
   * @default none
   */
  notify?: string;
  /**
   * How a notification writes the command that goes on with a run (`approve` after its pause,
   * `continue` after it failed or missed its goal). @default `flower approve|continue <run> --store <the store, without its password>`
   */
  commandFor?: FleetCommandFor;
  /**
   * The budget in dollars of a run submitted without one (`flower submit --budget`): over everything the
   * run spends; reached, it stops at a message boundary as `budget-reached`. @default none
   */
  budgetPerRun?: number;
  /**
   * The fleet's total per UTC day, over every run's spend on the store that day (all workers): while it
   * is spent no run is started (they stay queued, said once), and a run that crosses it stops at a message
   * boundary as `budget-reached`. The day's figure is read when a run starts: runs in flight together can
   * pass it by what they spend meanwhile. @default none
   */
  budgetPerDay?: number;
}

/** Every option name, checked against FleetWorkerOptions by the compiler. */
const KNOWN = {
  store: true,
  concurrency: true,
  runtime: true,
  pollMs: true,
  notify: true,
  commandFor: true,
  budgetPerRun: true,
  budgetPerDay: true,
} as const satisfies Record<keyof FleetWorkerOptions, true>;

/** The runtime options a worker passes on to each run's Runtime: all but the store and onEvent (the fleet's). */
const RUNTIME_KNOWN: Readonly<Record<string, true>> = Object.fromEntries(
  Object.keys(RUNTIME_OPTION_NAMES)
    .filter((key) => key !== "store" && key !== "onEvent")
    .map((key) => [key, true] as const),
);

/** A run this worker holds. */
interface Slot {
  run: FleetRun;
  rt: Runtime | null;
  /** Why it was stopped, if it was: a person's cancel, this worker's shutdown, or the row was taken. */
  stop: "cancel" | "shutdown" | "lost" | null;
  done: Promise<void>;
  /** The workflow step it is on, as its events say (a direct run: `work`). */
  step: string | null;
}

export class Worker {
  readonly options: Required<
    Omit<FleetWorkerOptions, "runtime" | "notify" | "commandFor" | "budgetPerRun" | "budgetPerDay">
  > &
    Pick<FleetWorkerOptions, "runtime" | "notify">;
  /** Every change this worker makes to its runs, and each run's runtime events. */
  readonly events = new FleetEvents();
  readonly #self: ProcessIdentity = currentProcess();
  /** This worker's claim token: the fleet rows it holds carry it. */
  readonly #token = randomUUID();
  readonly #slots = new Map<string, Slot>();
  #fleet: FleetStore | null = null;
  /** The store, parsed once: the fleet is opened on it and each run's Runtime gets it. */
  readonly #store: PostgresStoreSpec;
  #timer: NodeJS.Timeout | null = null;
  #ticking: Promise<void> | null = null;
  #stopping: Promise<void> | null = null;
  /** The worker's own notifier (`notify`), and how its notifications write the command that goes on. */
  readonly #notify: NotifyTarget | null;
  readonly #commandFor: FleetCommandFor;
  /** The language of the notifications' `why` (the runs' runtime locale). */
  readonly #locale: Locale;
  /** Notifications still being sent: stop() waits for them (each is bounded by its time limit). */
  readonly #notifying = new Set<Promise<void>>();
  /** Runs whose notifier failure was said: once per run, however often it is driven here. */
  readonly #notifyFailed = new Set<string>();
  /** `budgetPerRun` and `budgetPerDay`, checked. */
  readonly #budgets: { perRun?: number; perDay?: number };
  /** The UTC day whose budget was said to be spent: said once a day, not every tick. */
  #daySpentSaid: string | null = null;
  /** When what runs that are over left here was last cleared. */
  #clearedAt = 0;

  constructor(options: FleetWorkerOptions) {
    if (typeof options !== "object" || options === null)
      throw new ConfigurationError("options", options, "an object { store, runtime, concurrency?, pollMs? }");
    refuseUnknownOptions(options, KNOWN);
    const concurrency = options.concurrency ?? 1;
    if (!Number.isInteger(concurrency) || concurrency < 1)
      throw new ConfigurationError("concurrency", concurrency, "an integer >= 1");
    const pollMs = options.pollMs ?? 1_000;
    if (!(typeof pollMs === "number" && pollMs >= 50))
      throw new ConfigurationError("pollMs", pollMs, "a number >= 50");
    if (typeof options.runtime?.workspace !== "string")
      throw new ConfigurationError(
        "runtime.workspace",
        options.runtime?.workspace,
        "the workspace runs are driven in",
      );
    // Said now, not when the first run fails with it.
    refuseUnknownOptions(options.runtime, RUNTIME_KNOWN, "runtime.");
    this.#notify = options.notify === undefined ? null : notifyTarget(options.notify, "notify");
    if (options.commandFor !== undefined && typeof options.commandFor !== "function")
      throw new ConfigurationError("commandFor", options.commandFor, "a function (action, run) => string");
    this.#locale = resolveLocale(options.runtime.locale);
    for (const name of ["budgetPerRun", "budgetPerDay"] as const) {
      const usd = options[name];
      if (usd !== undefined && !(typeof usd === "number" && Number.isFinite(usd) && usd > 0))
        throw new ConfigurationError(name, usd, "a positive number of dollars");
    }
    this.#budgets = {
      ...(options.budgetPerRun !== undefined ? { perRun: options.budgetPerRun } : {}),
      ...(options.budgetPerDay !== undefined ? { perDay: options.budgetPerDay } : {}),
    };
    this.options = {
      store: options.store,
      concurrency,
      pollMs,
      runtime: options.runtime,
      ...(options.notify !== undefined ? { notify: options.notify } : {}),
    };
    // Refuses a store that is not PostgreSQL now, before anything starts.
    this.#store = fleetStoreSpec(options.store);
    this.#commandFor =
      options.commandFor ??
      defaultCommandFor(typeof options.store === "string" ? options.store : storeUrl(this.#store));
    this.#fleet = openFleetStore(this.#store, { supervise: true });
  }

  /** The runs this worker drives now. */
  get runs(): string[] {
    return [...this.#slots.keys()];
  }

  /** Connects (a StoreError naming the store when it cannot) and starts taking runs. */
  async start(): Promise<void> {
    const fleet = this.#fleet;
    if (!fleet || this.#stopping)
      throw new ConfigurationError("worker", "stopped", "a worker not stopped yet");
    await fleet.ready();
    await this.#clearOverRuns(fleet);
    this.#timer = setInterval(() => void this.#tick(), this.options.pollMs);
    await this.#tick();
  }

  /** Stops every run at its next message boundary, gives them back to the queue, and closes. */
  stop(): Promise<void> {
    this.#stopping ??= (async () => {
      if (this.#timer) clearInterval(this.#timer);
      await this.#ticking;
      for (const slot of this.#slots.values()) {
        slot.stop ??= "shutdown";
        slot.rt?.stop();
      }
      await Promise.all([...this.#slots.values()].map((slot) => slot.done));
      await Promise.all([...this.#notifying]);
      if (this.#fleet) await this.#clearOverRuns(this.#fleet);
      await this.#fleet?.close();
      this.#fleet = null;
    })();
    return this.#stopping;
  }

  #tick(): Promise<void> {
    if (this.#ticking || this.#stopping) return this.#ticking ?? Promise.resolve();
    this.#ticking = (async () => {
      const fleet = this.#fleet!;
      try {
        await this.#beat(fleet);
        await this.#watch(fleet);
        if (!this.#stopping) await this.#fetch(fleet);
        // Runs that ended on other workers leave trees here too (paused here, finished elsewhere).
        if (Date.now() - this.#clearedAt > CLEAR_EVERY_MS) await this.#clearOverRuns(fleet);
      } catch (error) {
        // The store is away for a moment: the next tick tries again; the runs' own writes say if it stays away.
        this.events.emit({ type: "worker-error", message: (error as Error).message });
      }
    })().finally(() => {
      this.#ticking = null;
    });
    return this.#ticking;
  }

  async #beat(fleet: FleetStore): Promise<void> {
    if (this.#slots.size === 0) return;
    const held = await fleet.runs.beat(this.#token);
    for (const [run, slot] of this.#slots) {
      const row = held.get(run);
      // Not answered: it is not ours any more, unless it just ended (the slot goes in a moment).
      if (!row) slot.stop ??= "lost";
      else if (row.cancelRequested) slot.stop ??= "cancel";
      if (slot.stop !== null && slot.stop !== "shutdown") slot.rt?.stop();
    }
  }

  /** Runs whose worker is gone go back to the queue (pg-boss retries their job). */
  async #watch(fleet: FleetStore): Promise<void> {
    const now = new Date();
    for (const run of await fleet.runs.list("running")) {
      const holder = run.holder;
      if (run.status !== "running" || holder === null || holder.token === this.#token) continue;
      if (!ownerGone(holderAsLease(run.run, holder), this.#self, now, DEFAULT_LEASE_TIMING)) continue;
      const status = await fleet.runs.reclaim(run.run, holder.token);
      if (status === null) continue;
      // Cancelled while its worker was dead: nobody was left to stop it, so it ends here.
      if (status === "cancelled") {
        if (run.job !== null) await fleet.queue.complete(run.job);
      } else await this.#requeue(fleet, run, `worker pid ${holder.pid}@${holder.host} is gone`);
      this.events.emit({
        type: "run-status",
        run: run.run,
        status,
        why: "worker-gone",
        by: holder,
      });
    }
  }

  /** A reclaimed run's job goes back through pg-boss's retry; a job out of retries fails the run. */
  async #requeue(fleet: FleetStore, run: FleetRun, why: string): Promise<void> {
    if (run.job !== null) {
      await fleet.queue.fail(run.job, why);
      const state = await fleet.queue.state(run.job);
      if (state === "retry" || state === "created") return;
      if (state === "failed") {
        // Said on the row, so `flower runs` shows why the run ended without a step failing.
        const error = `${why}; its job went back ${RETRY_LIMIT} times already, so the run ends here`;
        await fleet.runs.move(run.run, ["queued"], "failed", { job: null, error });
        return;
      }
    }
    // The job was completed meanwhile (expired and re-delivered, say): the run gets a new one.
    await fleet.runs.setJob(run.run, await fleet.queue.send(run.run));
  }

  async #fetch(fleet: FleetStore): Promise<void> {
    const free = this.options.concurrency - this.#slots.size;
    if (free <= 0) return;
    const day = await this.#dayBudget(fleet);
    if (day === "spent") return;
    for (const job of await fleet.queue.fetch(free)) {
      const claimed = await fleet.runs.claim(job.run, this.#token, this.#self);
      if (!claimed) {
        const row = await fleet.runs.get(job.run);
        // Held by a live worker under this very job (an expired job delivered again): leave it to that worker.
        if (row?.status === "running" && row.job === job.id) continue;
        await fleet.queue.complete(job.id);
        continue;
      }
      if (claimed.job !== job.id) await fleet.runs.setJob(job.run, job.id);
      // A run that went on from an earlier day: its own spend is taken back out of the day's offset.
      const own = day === null ? 0 : await fleet.records.runSpent(job.run);
      this.#drive({ ...claimed, job: job.id }, fleet, day === null ? null : { ...day, own });
    }
  }

  /**
   * The fleet's budget for the UTC day: "spent" while the store's spend today has reached it (said once a
   * day; no run is taken), else what each run starting now runs under (the day's spend of the others
   * counted in its offset), or null without one. Read on every tick with a free slot, so it is one sum
   * the store keeps beside the records (flower_step_spend), never a read of the records themselves: an
   * idle worker over 10,000 records spent 2.1 s of CPU and read 65 MB per 1 s tick that way.
   */
  async #dayBudget(fleet: FleetStore): Promise<DayBudget | "spent" | null> {
    const usd = this.#budgets.perDay;
    if (usd === undefined) return null;
    const today = utcDay(new Date());
    const spent = await fleet.records.daySpent(today);
    if (spent >= usd) {
      if (this.#daySpentSaid !== today) {
        this.#daySpentSaid = today;
        this.events.emit({ type: "day-budget-spent", day: today, spentUsd: spent, budgetUsd: usd });
      }
      return "spent";
    }
    return { usd, spent };
  }

  #drive(run: FleetRun, fleet: FleetStore, day: DayBudget | null): void {
    const slot: Slot = {
      run,
      rt: null,
      stop: null,
      done: Promise.resolve(),
      step: run.options.direct ? "work" : run.step,
    };
    this.#slots.set(run.run, slot);
    // A direct run is the work step alone: it has no workflow-step events to name its step.
    if (run.options.direct) fleet.runs.setStep(run.run, this.#token, "work").catch(() => undefined);
    this.events.emit({
      type: "run-status",
      run: run.run,
      status: "running",
      pid: this.#self.pid,
      host: this.#self.host,
    });
    slot.done = driveRun({
      store: this.#store,
      run,
      carrier: fleet.work,
      runtime: this.options.runtime,
      budgets: budgetsFor(run, this.#budgets.perRun, day),
      onRuntime: (rt) => {
        slot.rt = rt;
        if (slot.stop !== null) rt.stop();
      },
      onWorkspace: (space) =>
        this.events.emit({
          type: "run-workspace",
          run: run.run,
          path: space.path,
          created: space.created,
          commit: space.commit,
          restored: space.restored,
          leftOut: space.leftOut,
        }),
      onSetup: (line) => this.events.emit({ type: "run-setup", run: run.run, line }),
      onEvent: (event) => {
        this.events.emit({ type: "run-event", run: run.run, event });
        if (event.type === "workflow-step" && event.phase === "start") {
          slot.step = event.name;
          fleet.runs.setStep(run.run, this.#token, event.name).catch(() => undefined);
        }
      },
    })
      .catch((error: unknown): DriveOutcome => ({ status: "failed", error: (error as Error).message }))
      .then(async (outcome) => {
        // A run that is over leaves nothing here, and before its end is written: once the store says
        // it ended, this worker holds nothing of it (run-leftovers.ts).
        if (FINISHED.includes(endOf(slot.stop, outcome) as FleetStatus))
          await removeRunWorkspace(runDirOf(this.options.runtime), run.run).catch(() => false);
        const settled = await settle(fleet, {
          run,
          token: this.#token,
          stop: slot.stop,
          outcome,
          events: this.events,
        });
        this.#tell(run, fleetNotice(run.run, slot.step, settled, outcome, this.#locale, this.#commandFor));
        await this.#clearOverRuns(fleet, run.run);
      })
      .catch((error: unknown) =>
        this.events.emit({ type: "worker-error", message: (error as Error).message }),
      )
      .finally(() => {
        this.#slots.delete(run.run);
      });
  }

  /**
   * Clears what runs that are over left on this machine (`ended`: the run whose end was just written,
   * no longer counted as driven), its own and those that ended on another worker (run-leftovers.ts).
   */
  async #clearOverRuns(fleet: FleetStore, ended?: string): Promise<void> {
    this.#clearedAt = Date.now();
    const driving = new Set([...this.#slots.keys()].filter((run) => run !== ended));
    await clearOverRuns(fleet, runDirOf(this.options.runtime), driving).catch((error: unknown) =>
      this.events.emit({ type: "worker-error", message: (error as Error).message }),
    );
  }

  /**
   * Tells the worker's notifier and the run's own, in the background: the slot is free at once, and a
   * notifier that hangs is ended at its time limit. A failure is one `notify-failed` event for the run.
   */
  #tell(run: FleetRun, notice: ReturnType<typeof fleetNotice>): void {
    if (notice === null) return;
    const targets: NotifyTarget[] = [];
    if (this.#notify) targets.push(this.#notify);
    if (run.options.notify !== undefined) {
      // Checked when it was submitted; a row written by other code is checked again here, and skipped.
      const own = parseNotifyTarget(run.options.notify);
      if (!("refused" in own)) targets.push(own);
    }
    if (targets.length === 0) return;
    const notifier = new Notifier(targets, {
      locale: this.#locale,
      onFailure: (message) => {
        if (this.#notifyFailed.has(run.run)) return;
        this.#notifyFailed.add(run.run);
        this.events.emit({ type: "notify-failed", run: run.run, message });
      },
    });
    const sending = notifier.send(notice).finally(() => this.#notifying.delete(sending));
    this.#notifying.add(sending);
  }
}

export type { FleetEvent };

/** How often an idle worker looks for trees of runs that ended elsewhere. */
const CLEAR_EVERY_MS = 60_000;

/** A notify value as a target, or a ConfigurationError naming the option (the value shown without secrets). */
function notifyTarget(value: unknown, option: string): NotifyTarget {
  const target = parseNotifyTarget(value);
  if ("refused" in target)
    throw new ConfigurationError(
      option,
      typeof value === "string" ? shownTarget(value) : value,
      NOTIFY_EXPECTED,
    );
  return target;
}

/** The fleet's day budget as a worker read it before starting runs. */
interface DayBudget {
  usd: number;
  /** The store's spend on the UTC day so far. */
  spent: number;
  /** The run's own spend so far (every day), read when it is started. */
  own?: number;
}

/**
 * What one run runs under: its own budget (submitted, else the worker's default) and the day's, whose
 * offset makes the run's growing figure count on top of what the day spent without it (the run's own
 * spend on earlier days taken back out).
 */
function budgetsFor(run: FleetRun, perRun: number | undefined, day: DayBudget | null): DriveBudgets {
  const own = run.options.budgetUsd ?? perRun;
  return {
    ...(own !== undefined ? { runUsd: own } : {}),
    ...(day !== null ? { day: { by: "day", usd: day.usd, offset: day.spent - (day.own ?? 0) } } : {}),
  };
}
