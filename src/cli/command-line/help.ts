/**
 * `flower --help` and `flower <command> --help`, in the display language (`--lang`, else FLOWER_LANG,
 * else LANG). The options and their defaults come from the one table in command-options.ts, so the
 * help cannot drift from what the parser accepts.
 */
import { invocation } from "../../locale/invocation.js";
import type { Locale } from "../../locale/locale.js";
import {
  COMMAND_OPTIONS,
  COMMANDS,
  type CommandName,
  type Localized,
  type OptionSpec,
} from "./command-options.js";
import { columnsOf } from "../live/terminal-text.js";
import { terminalWidth, wrap } from "./wrap.js";

export const USAGE: Record<CommandName, { usage: string; summary: Localized }> = {
  run: {
    usage: 'flower [options] "<task>"',
    summary: {
      en: "Requirements → goal → work on the task (pauses after the requirements; --yes runs through, --direct only works).",
      zh: "需求 → 目标 → 干活(需求冻结后停下;--yes 一口气跑完,--direct 只干活)。",
    },
  },
  continue: {
    usage: "flower continue [step] [options]",
    summary: {
      en: "Continue the last (or the named) run or step: a run at the step where it stopped, a step on its latest session.",
      zh: "接着做最后一个(或指定的)运行或步骤:运行从停下的那一步接着走,步骤在最新的会话上接着做。",
    },
  },
  runs: {
    usage: "flower runs [options]",
    summary: {
      en: "List the runs and steps: status, generations, cost, turns, last update; a run's steps under it.",
      zh: "列出运行和步骤:状态、代数、花费、轮数、最后更新;运行的各步列在它下面。",
    },
  },
  show: {
    usage: "flower show [step] [options]",
    summary: {
      en: "Show a run (its steps and frozen documents) or one step: generations, sessions, cost, handoffs, its document.",
      zh: "看一个运行(各步和冻结的文书)或一步:代数、会话、花费、交接书、它的文书。",
    },
  },
  report: {
    usage: "flower report [<run>|<step>...] [options]",
    summary: {
      en: "Write one self-contained HTML page of a run (default: the last) or of steps: context per turn, handoffs, cost, checks.",
      zh: "把一次运行(默认最后一次)或几步画成一个自带一切的 HTML 文件:每轮上下文、换代、花费、检查。",
    },
  },
  forget: {
    usage: "flower forget <step|run> [options]",
    summary: {
      en: "Delete the step's (or run's) sessions from the session store (retention); its run record stays. With --store: its sessions, stored files, records and checkpoints, and a finished fleet run's row; an open fleet run is refused. --older-than 30d instead of a name: every run last written longer ago.",
      zh: "从会话库里删掉这一步(或这次运行)的会话(保留期);它的运行记录留着。带 --store:删掉它的会话、存下的文件、记录和检查点,以及已结束的车队运行那一行;未结束的车队运行会被拒绝。用 --older-than 30d 代替名字:最后写入早于这个时长的每次运行。",
    },
  },
  handoff: {
    usage: 'flower handoff <step> [--next "TEXT"] [options]',
    summary: {
      en: "Ask the step's live driver (here or on any machine of a shared store) to hand off at its next message boundary.",
      zh: "请这一步正在跑的驱动(本机,或共用存储的任一台机器)在下一个消息边界交接。",
    },
  },
  say: {
    usage: 'flower say <run|step> "TEXT" [options]',
    summary: {
      en: "Tell a run something: its main thread gets your words at its next message boundary (here or on any machine of a shared store); a paused or stopped run gets them when it goes on.",
      zh: "对一次运行说句话:它的主线程在下一个消息边界收到(本机,或共用存储的任一台机器);暂停或停下的运行在接着走时收到。",
    },
  },
  submit: {
    usage: 'flower submit "<task>" --store URL [options]',
    summary: {
      en: "Put a run in the fleet's queue (a PostgreSQL store) and print its name; a worker on any machine takes it.",
      zh: "把一次运行放进车队的队列(PostgreSQL 存储)并打印它的名字;任一台机器上的 worker 会接手。",
    },
  },
  worker: {
    usage: "flower worker --store URL [options]",
    summary: {
      en: "Take runs off the fleet's queue and drive them; a dead worker's runs are continued by another. Ctrl-C gives its runs back.",
      zh: "从车队的队列里取运行来驱动;死掉的 worker 的运行由别的 worker 接着做。Ctrl-C 把手上的运行交回队列。",
    },
  },
  approve: {
    usage: "flower approve <run> --store URL",
    summary: {
      en: "Let a run paused after its requirements go on (a worker takes it); edit the frozen file first if you wish.",
      zh: "让停在需求之后的运行继续(由 worker 接手);想改冻结的文件就先改。",
    },
  },
  cancel: {
    usage: "flower cancel <run> --store URL",
    summary: {
      en: "Cancel a run: a queued or paused one at once, a running one at its next message boundary, wherever it runs.",
      zh: "取消一次运行:排队或暂停的立即取消,正在跑的在下一个消息边界停下,不管在哪台机器上。",
    },
  },
  demo: {
    usage: "flower demo [options]",
    summary: {
      en: "A scripted long-horizon run against the offline model kit and the real Claude Code binary: no key, no cost.",
      zh: "一段写好剧本的长程运行,用离线模型套件和真的 Claude Code 二进制:不要密钥,不花钱。",
    },
  },
  diff: {
    usage: "flower diff <run> [--generation N] [options]",
    summary: {
      en: "What a run changed, as a patch: the whole run, one step, or one generation (--stat, --name-only for less).",
      zh: "一次运行改了什么,以补丁形式:整次运行、某一步或某一代(--stat、--name-only 看简略的)。",
    },
  },
  apply: {
    usage: "flower apply <run> [--squash] [options]",
    summary: {
      en: "Merge the run's branch flower/<run> into your current branch; refused, nothing changed, over uncommitted changes or a conflict.",
      zh: "把运行的分支 flower/<run> 合进你当前的分支;有未提交的改动或冲突就拒绝,什么都不改。",
    },
  },
  discard: {
    usage: "flower discard <run> [options]",
    summary: {
      en: "Throw a run's work away here: its branch flower/<run> and its own worktree go; records and checkpoints stay.",
      zh: "在这里丢掉一次运行的成果:删掉它的分支 flower/<run> 和它自己的 worktree;记录和检查点留着。",
    },
  },
  fetch: {
    usage: "flower fetch <run> [options]",
    summary: {
      en: "Bring a run's work to this checkout as the branch flower/<run> (with --store: from whichever machine ran it).",
      zh: "把一次运行的成果带到这份检出,成为分支 flower/<run>(带 --store:不管它在哪台机器上跑的)。",
    },
  },
  rewind: {
    usage: "flower rewind <step> --to N [options]",
    summary: {
      en: "Take a step back to the start of generation N: its files go back, later generations are archived, that generation's handoff is current again; then flower continue.",
      zh: "把一步退回到第 N 代的开头:文件放回去,后面的代存档,那一代的交接书重新成为当前的;然后 flower continue。",
    },
  },
  serve: {
    usage: "flower serve [options]",
    summary: {
      en: "A local page of every run (status, step, machine, context gauge, cost, checks), live; a run opens to its report. Read-only unless --allow-actions.",
      zh: "一个本地页面列出所有运行(状态、步骤、机器、上下文表、花费、检查),实时更新;点开就是它的报告。默认只读,--allow-actions 才能操作。",
    },
  },
};

const WORDS: Record<
  Locale,
  {
    tagline: string;
    usage: string;
    options: string;
    runOptions: string;
    default: string;
    footer: string[];
    continueNote: string;
    demoNote: string;
    reportNote: string;
    /**
     * Under `npx flower` (no `flower` on the PATH here): the help names the command `flower`, as its
     * reference; this line says what to type instead.
     */
    npxNote: string;
  }
> = {
  en: {
    tagline:
      "flower — long-horizon agents on the Claude Agent SDK: handoff generations instead of auto-compact.",
    npxNote:
      "Here flower runs from this project's node_modules: type npx flower where this help says flower (npx flower continue, npx flower runs, …).",
    usage: "Usage",
    options: "Options",
    runOptions: "Options of a run",
    default: "default",
    footer: [
      "Credentials: ANTHROPIC_API_KEY or ANTHROPIC_AUTH_TOKEN; ANTHROPIC_BASE_URL for a gateway; ANTHROPIC_MODEL.",
      "No key yet? `flower demo` shows a whole run offline.",
      "`flower <command> --help` lists each command's options. Exit codes: 0 ok, 1 step failed, 2 usage or configuration, 130 stopped by Ctrl-C, 143 stopped by SIGTERM.",
    ],
    continueNote:
      "A run goes on at the step where it stopped (a frozen step is never redone; a document edited before the next step begins is read as it is then; once a step has begun with it, a later edit is reported and not used, --reread-goal takes the goal file as it is now); a step is continued with the default coordinator and subagents, in --workspace (default: the current directory). It runs with the settings the step (or run) was started with — --model, --window, --no-handoff, --max-budget-usd, --review, --lang; a flag given here overrides one and says so.",
    reportNote:
      "A name a step record has draws that step; otherwise a run id draws the whole run: its task as typed, its steps in order, each frozen document as the steps read it (a section changed after the freeze marked), the goal's checks run by run with their logs, then each step's chart. No name: the last step's run (a step run on its own: that step). The file goes next to the records (--out to choose).",
    demoNote:
      "Shows the workflow (requirements, a pause with an edited line, goal, work), delegation, a glance, a denied Bash, a spill and two handoffs live. It takes 10 to 30 seconds on a quiet machine and a minute or more on a busy one, and says how long it took. --keep keeps its workspace to look at with runs, show and report.",
  },
  zh: {
    tagline: "flower —— 基于 Claude Agent SDK 的长程智能体:用交接换代代替自动压缩。",
    npxNote:
      "这里的 flower 从本项目的 node_modules 运行:帮助里写 flower 的地方请输入 npx flower(npx flower continue、npx flower runs 等)。",
    usage: "用法",
    options: "选项",
    runOptions: "运行的选项",
    default: "默认",
    footer: [
      "凭据:ANTHROPIC_API_KEY 或 ANTHROPIC_AUTH_TOKEN;走网关用 ANTHROPIC_BASE_URL;模型用 ANTHROPIC_MODEL。",
      "还没有密钥?`flower demo` 离线演示一整段运行。",
      "`flower <命令> --help` 列出每个命令的选项。退出码:0 成功,1 步骤失败,2 用法或配置错误,130 被 Ctrl-C 停下,143 被 SIGTERM 停下。",
    ],
    reportNote:
      "名字是某一步的记录名时画那一步;否则按运行 id 画整次运行:原样的任务、按顺序的各步、各步读到的文书(冻结后改过的段落有标记)、目标检查的逐次结果和日志,然后是每一步的图。不给名字:最后一步所在的运行(单独跑的一步就画那一步)。文件放在记录旁边(--out 另选)。",
    continueNote:
      "运行从停下的那一步接着走(冻结过的步不重做;下一步开始前改过的文书按那时的样子读;某一步已经用它开始后,再改只报告、不采用,--reread-goal 按现在的目标文件来);单独的一步用默认的协调者和子代理接着做,在 --workspace 里(默认当前目录)。沿用这一步(或这次运行)启动时的设置 —— --model、--window、--no-handoff、--max-budget-usd、--review、--lang;这里给的选项会覆盖对应的一项,并说明。",
    demoNote:
      "现场演示工作流(需求、停下改一行、目标、干活)、委派、看一眼仓库、被拒的 Bash、溢出落盘和两次换代。空闲的机器上要 10 到 30 秒,繁忙的机器上一分钟或更久,跑完会说用了多久。--keep 保留工作区,可以用 runs、show、report 查看。",
  },
};

/**
 * The help, wrapped to `width` columns (the terminal's; 80 when unknown) at word boundaries, with a
 * hanging indent under a command's usage and an option's flag.
 */
export function helpText(
  command: CommandName | undefined,
  locale: Locale,
  width: number = terminalWidth(),
): string {
  const words = WORDS[locale];
  const prose = (text: string) => wrap(text, width);
  const npx = invocation() === "npx flower" ? [...prose(words.npxNote), ""] : [];
  if (!command) {
    const lines = [
      ...prose(words.tagline),
      "",
      ...npx,
      `${words.usage}:`,
      ...COMMANDS.flatMap((name) => usageLines(USAGE[name].usage, USAGE[name].summary[locale], width)),
      "",
      ...optionsBlock(words.runOptions, COMMAND_OPTIONS.run, locale, width),
      "",
      ...words.footer.flatMap(prose),
    ];
    return `${lines.join("\n")}\n`;
  }
  const lines = [
    ...prose(USAGE[command].summary[locale]),
    "",
    ...npx,
    ...wrap(USAGE[command].usage, width, `${words.usage}: `),
    "",
    ...optionsBlock(words.options, COMMAND_OPTIONS[command], locale, width),
  ];
  if (command === "continue") lines.push("", ...prose(words.continueNote));
  if (command === "demo") lines.push("", ...prose(words.demoNote));
  if (command === "report") lines.push("", ...prose(words.reportNote));
  return `${lines.join("\n")}\n`;
}

/** Where descriptions start when there is room beside the flags; narrower, they go under them. */
const SIDE_BY_SIDE_MIN = 30;

/** Where a command's summary starts beside its usage. */
export const SUMMARY_COLUMN = 37;

/**
 * A command's usage and its summary beside it, starting at SUMMARY_COLUMN. A usage too long to leave a
 * space before that column has a line of its own, its summary under it at the same column (beside, it
 * would push its first line past the others'). On a narrow terminal every summary goes under its usage.
 */
function usageLines(usage: string, summary: string, width: number): string[] {
  const column = SUMMARY_COLUMN;
  if (width - column < SIDE_BY_SIDE_MIN) return [`  ${usage}`, ...wrap(summary, width, "      ")];
  if (2 + columnsOf(usage) < column) return wrap(summary, width, `  ${usage.padEnd(column - 2)}`);
  return [`  ${usage}`, ...wrap(summary, width, " ".repeat(column))];
}

function optionsBlock(
  title: string,
  specs: Record<string, OptionSpec>,
  locale: Locale,
  width: number,
): string[] {
  const label = WORDS[locale].default;
  const rows = Object.entries(specs).map(([name, spec]) => {
    const flag = `${spec.short ? `-${spec.short}, ` : "    "}--${name}${spec.value ? ` ${spec.value}` : ""}`;
    return { flag, text: `${spec.help[locale]} [${label}: ${spec.default[locale]}]` };
  });
  const flagWidth = Math.max(...rows.map((row) => row.flag.length)) + 2;
  const beside = width - (2 + flagWidth) >= SIDE_BY_SIDE_MIN;
  return [
    `${title}:`,
    ...rows.flatMap((row) =>
      beside
        ? wrap(row.text, width, `  ${row.flag.padEnd(flagWidth)}`)
        : [`  ${row.flag}`, ...wrap(row.text, width, " ".repeat(10))],
    ),
  ];
}
