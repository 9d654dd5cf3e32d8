/** The step loop's words, per locale: what a retried or continued session is told, and why a step gave up. */
import { typed } from "../locale/invocation.js";
import { DEFAULTS } from "../defaults.js";
import type { Locale } from "../locale/locale.js";
import type { CannotPass } from "./drive/failure-class.js";

/** The prompt a continued session gets when the caller gives none. */
export const CONTINUE_PROMPT: Readonly<Record<Locale, string>> = { zh: "继续。", en: "Continue the task." };

/** Resuming a session after a failed attempt: what happened, and to go on. */
export const CONTINUE_AFTER_FAILURE: Readonly<Record<Locale, (reason: string) => string>> = {
  zh: (reason) => `上一次尝试因错误中断了(${reason})。请从中断的地方接着做原来的任务。`,
  en: (reason) =>
    `The previous attempt was cut off by an error (${reason}). Continue the original task from where it stopped.`,
};

/**
 * The loop brake (generation-switch.ts): generations hand off before doing any work, so the line is
 * probably below the role's start-up floor (docs/handoffs.md). Both languages say that diagnosis and
 * the two ways out.
 */
export const LOOP_MESSAGE: Readonly<
  Record<Locale, (loop: { generation: number; startup: number | null; turns: number; at: number }) => string>
> = {
  zh: ({ generation, startup, turns, at }) =>
    `第 ${generation} 代${startup !== null && startup >= at ? `一开始就有 ${startup} token,已经到了换代线(${at})` : `和上一代都只做了 ${turns} 轮就到了换代线(${at})`},每一代都在干活之前就交接。阈值很可能低于这个角色的启动地板(协调者实测约 ${DEFAULTS.coordinatorStartupFloor / 1000}k):把 window 调大,或 --no-handoff。`,
  en: ({ generation, startup, turns, at }) =>
    `Generations hand off before doing any work: generation ${generation} ${startup !== null && startup >= at ? `began at ${startup} tokens, already at the handoff line (${at})` : `and the one before reached the handoff line (${at}) within ${turns} ${turns === 1 ? "turn" : "turns"}`}. The line is probably below this role's start-up floor (measured ~${DEFAULTS.coordinatorStartupFloor / 1000}k for a coordinator): raise window, or use --no-handoff.`,
};

/** A cap the caller set (`maxGenerations`) was reached: the step stops there, as asked. */
export const MAX_GENERATIONS_MESSAGE: Readonly<
  Record<Locale, (counts: { handoffs: number; max: number }) => string>
> = {
  zh: ({ handoffs, max }) => `已换代 ${handoffs} 次,到了设定的 maxGenerations=${max}:按要求停在这里。`,
  en: ({ handoffs, max }) =>
    `Handed off ${handoffs} ${handoffs === 1 ? "time" : "times"} and reached the maxGenerations you set (${max}): stopped there, as asked.`,
};

/** The binary said so on stderr: it will not run bypassPermissions as root without IS_SANDBOX=1. */
const ROOT_REFUSAL = /root\/sudo|IS_SANDBOX/i;

/** What the person can do about a failure that cannot pass, per kind; `refused-start` as root has its own. */
// Getters: `flower -v` is written as the person's shell reaches flower (locale/invocation.ts).
const CANNOT_PASS_HINT: Readonly<Record<Locale, Record<CannotPass | "refused-start-as-root", string>>> = {
  en: {
    authentication: "check ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN)",
    permission: "check that this key may use this model (ANTHROPIC_API_KEY, --model)",
    get "invalid-request"() {
      return `the provider refuses this request as it is; see ${typed("-v")}`;
    },
    "cloud-credentials": "check the cloud provider's credentials (AWS, Google Cloud or Azure)",
    get "refused-start"() {
      return `the claude binary refused to start; see ${typed("-v")}`;
    },
    get "refused-start-as-root"() {
      return `running as root, set IS_SANDBOX=1 (or run flower as an ordinary user); see ${typed("-v")}`;
    },
  },
  zh: {
    authentication: "检查 ANTHROPIC_API_KEY(或 ANTHROPIC_AUTH_TOKEN)",
    permission: "检查这个密钥能否使用该模型(ANTHROPIC_API_KEY、--model)",
    get "invalid-request"() {
      return `服务方拒绝这个请求本身;见 ${typed("-v")}`;
    },
    "cloud-credentials": "检查云服务的凭据(AWS、Google Cloud 或 Azure)",
    get "refused-start"() {
      return `claude 程序拒绝启动;见 ${typed("-v")}`;
    },
    get "refused-start-as-root"() {
      return `以 root 运行时请设 IS_SANDBOX=1(或换普通用户运行 flower);见 ${typed("-v")}`;
    },
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
