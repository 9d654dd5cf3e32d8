/** The step loop's words, per locale: what a retried or continued session is told, and why a step gave up. */
import { DEFAULTS } from "../defaults.js";
import type { Locale } from "../locale/locale.js";
import type { CannotPass } from "./failure-class.js";

/** The prompt a continued session gets when the caller gives none. */
export const CONTINUE_PROMPT: Readonly<Record<Locale, string>> = { zh: "继续。", en: "Continue the task." };

/** Resuming a session after a failed attempt: what happened, and to go on. */
export const CONTINUE_AFTER_FAILURE: Readonly<Record<Locale, (reason: string) => string>> = {
  zh: (reason) => `上一次尝试因错误中断了(${reason})。请从中断的地方接着做原来的任务。`,
  en: (reason) =>
    `The previous attempt was cut off by an error (${reason}). Continue the original task from where it stopped.`,
};

/**
 * maxGenerations reached: the threshold is probably below the role's start-up floor (seed H10). The zh
 * text carries the seeds' sentence as written.
 */
export const FLOOR_MESSAGE: Readonly<
  Record<Locale, (counts: { handoffs: number; max: number; at: number }) => string>
> = {
  zh: ({ handoffs, max, at }) =>
    `已换代 ${handoffs} 次,到了 max_generations=${max},仍然越线(阈值 ${at},协调者实测启动地板约 ${DEFAULTS.coordinatorStartupFloor / 1000}k)。阈值很可能低于这个角色的启动地板,把 window 调大,或 --no-handoff。`,
  en: ({ handoffs, max, at }) =>
    `Handed off ${handoffs} ${handoffs === 1 ? "time" : "times"} and reached maxGenerations (${max}), still over the line. The threshold (${at}) is probably below this role's start-up floor (measured ~${DEFAULTS.coordinatorStartupFloor / 1000}k for a coordinator): raise window, or use --no-handoff.`,
};

/**
 * maxGenerations reached under the cost rule: nothing is wrong with the window, the rule hands off every
 * few dozen turns by design (workload 5 of the bench: 27 generations for 1,000 sub-tasks), so the brake
 * is too low for the job.
 */
export const COST_RULE_BRAKE_MESSAGE: Readonly<
  Record<Locale, (counts: { handoffs: number; max: number }) => string>
> = {
  zh: ({ handoffs, max }) =>
    `已换代 ${handoffs} 次,到了 maxGenerations=${max}。成本规则(rule: "cost")本来就每几十轮换代一次,这个上限对这么长的任务太低:把 maxGenerations 调大(大约每 40 轮一代)。`,
  en: ({ handoffs, max }) =>
    `Handed off ${handoffs} ${handoffs === 1 ? "time" : "times"} and reached maxGenerations (${max}). The cost rule (rule: "cost") hands off every few dozen turns by design, so the brake is too low for a job this long: raise maxGenerations (about one generation per 40 turns).`,
};

/** The binary said so on stderr: it will not run bypassPermissions as root without IS_SANDBOX=1. */
const ROOT_REFUSAL = /root\/sudo|IS_SANDBOX/i;

/** What the person can do about a failure that cannot pass, per kind; `refused-start` as root has its own. */
const CANNOT_PASS_HINT: Readonly<Record<Locale, Record<CannotPass | "refused-start-as-root", string>>> = {
  en: {
    authentication: "check ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN)",
    permission: "check that this key may use this model (ANTHROPIC_API_KEY, --model)",
    "invalid-request": "the provider refuses this request as it is; see flower -v",
    "cloud-credentials": "check the cloud provider's credentials (AWS, Google Cloud or Azure)",
    "refused-start": "the claude binary refused to start; see flower -v",
    "refused-start-as-root":
      "running as root, set IS_SANDBOX=1 (or run flower as an ordinary user); see flower -v",
  },
  zh: {
    authentication: "检查 ANTHROPIC_API_KEY(或 ANTHROPIC_AUTH_TOKEN)",
    permission: "检查这个密钥能否使用该模型(ANTHROPIC_API_KEY、--model)",
    "invalid-request": "服务方拒绝这个请求本身;见 flower -v",
    "cloud-credentials": "检查云服务的凭据(AWS、Google Cloud 或 Azure)",
    "refused-start": "claude 程序拒绝启动;见 flower -v",
    "refused-start-as-root": "以 root 运行时请设 IS_SANDBOX=1(或换普通用户运行 flower);见 flower -v",
  },
};

const CANNOT_PASS_LINE: Readonly<Record<Locale, (reason: string, hint: string) => string>> = {
  en: (reason, hint) => `not retried, it cannot pass: ${reason} — ${hint}`,
  zh: (reason, hint) => `不重试(重试也过不去):${reason} —— ${hint}`,
};

/** The line for one locale: the cause, and the hint for its kind (the binary's root refusal named). */
function cannotPassLine(locale: Locale): (why: CannotPass, reason: string) => string {
  return (why, reason) => {
    const rootRefusal = why === "refused-start" && ROOT_REFUSAL.test(reason);
    return CANNOT_PASS_LINE[locale](
      reason,
      CANNOT_PASS_HINT[locale][rootRefusal ? "refused-start-as-root" : why],
    );
  };
}

/**
 * A failure that cannot pass on another attempt (failure-class.ts): not retried, the cause in the API's or
 * the binary's words, and what the person can do about it.
 */
export const CANNOT_PASS: Readonly<Record<Locale, (why: CannotPass, reason: string) => string>> = {
  en: cannotPassLine("en"),
  zh: cannotPassLine("zh"),
};
