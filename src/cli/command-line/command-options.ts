/**
 * The one table of commands and their options: each command declares its options once, with the
 * default shown in its help. The parser (args.ts) and the help (help.ts) both read it, so the help
 * cannot drift from what the parser accepts.
 */
import { DEFAULTS } from "../../defaults.js";
import type { Locale } from "../../locale/locale.js";

export type CommandName =
  | "run"
  | "continue"
  | "runs"
  | "show"
  | "report"
  | "forget"
  | "handoff"
  | "say"
  | "demo"
  | "submit"
  | "worker"
  | "approve"
  | "cancel"
  | "serve"
  | "diff"
  | "apply"
  | "discard"
  | "fetch"
  | "rewind";

export const COMMANDS: readonly CommandName[] = [
  "run",
  "continue",
  "runs",
  "show",
  "report",
  "forget",
  "handoff",
  "say",
  "demo",
  "submit",
  "worker",
  "approve",
  "cancel",
  "serve",
  "diff",
  "apply",
  "discard",
  "fetch",
  "rewind",
];

/** A help string in both display languages. */
export type Localized = Readonly<Record<Locale, string>>;

export interface OptionSpec {
  type: "string" | "boolean";
  short?: string;
  /** A number: a value that starts with a dash (`-3`) is its value, refused by its parser, not an option. */
  numeric?: true;
  /** Placeholder of the value in the help, e.g. `N`. */
  value?: string;
  /** The default as shown in the help. */
  default: Localized;
  help: Localized;
}

/** The smallest --window: below it a coordinator cannot start and do one turn before the handoff line (DEFAULTS). */
export const MIN_WINDOW = DEFAULTS.minimumWindow;

const HELP: Record<string, OptionSpec> = {
  help: {
    type: "boolean",
    short: "h",
    default: { en: "off", zh: "关" },
    help: { en: "Show this help.", zh: "显示这份帮助。" },
  },
};

const LANG: Record<string, OptionSpec> = {
  lang: {
    type: "string",
    value: "zh|en",
    default: {
      en: "FLOWER_LANG, else LANG (zh* → zh), else en",
      zh: "FLOWER_LANG,其次 LANG(zh* → zh),否则 en",
    },
    help: { en: "Language of the display and the handoff documents.", zh: "界面和交接书用的语言。" },
  },
};

const RUN_DIR: Record<string, OptionSpec> = {
  "run-dir": {
    type: "string",
    value: "DIR",
    default: { en: "runs", zh: "runs" },
    help: {
      en: "Where the run records (records.db, copied to manifest.json to read) and the session database live.",
      zh: "运行记录(records.db,另抄一份 manifest.json 供人读)和会话数据库所在的目录。",
    },
  },
};

const STORE: Record<string, OptionSpec> = {
  store: {
    type: "string",
    value: "URL",
    default: {
      en: "FLOWER_STORE, else SQLite in the run directory",
      zh: "FLOWER_STORE,否则用运行目录里的 SQLite",
    },
    help: {
      en: "A shared store for a fleet: postgres://user:password@host:port/database. Sessions, run records, leases, handoffs and spill files go there, so another machine can continue the step.",
      zh: "给一组机器共用的存储:postgres://用户:密码@主机:端口/数据库。会话、运行记录、租约、交接书和溢出文件都放在那里,别的机器就能接着做这一步。",
    },
  },
};

/**
 * `--workspace` on the commands that only read records: the printed `continue` line and a run's own
 * command line carry it, and a person carries the line from one command to the next. Records are found
 * through --run-dir (or --store), so it changes nothing here; refusing it would only break the line.
 */
const CARRIED_WORKSPACE: Record<string, OptionSpec> = {
  workspace: {
    type: "string",
    value: "DIR",
    default: { en: ". (the current directory)", zh: ".(当前目录)" },
    help: {
      en: "The run's workspace, as given to the run; accepted so a command line carries over (records are read from --run-dir or --store).",
      zh: "运行的工作区,和运行时给的一样;收下它是为了命令行能原样沿用(记录从 --run-dir 或 --store 读)。",
    },
  },
};

const JSON_OUT: Record<string, OptionSpec> = {
  json: {
    type: "boolean",
    default: { en: "off", zh: "关" },
    help: {
      en: "One JSON object per line on stdout, nothing else there (human lines go to stderr).",
      zh: "stdout 上每行一个 JSON 对象,别的都不写(给人看的行去 stderr)。",
    },
  },
};

const VERBOSE_RUN: OptionSpec = {
  type: "boolean",
  short: "v",
  default: { en: "off", zh: "关" },
  help: {
    en: "Before starting, print endpoint, model and token (first 4 chars only); also show every tool call.",
    zh: "开始前打印端点、模型名和 token(只露前 4 个字符);并显示每次工具调用。",
  },
};

/**
 * `--notify`: who is told when a run needs a person or ends. The same words for every command but the
 * last sentence, which says whose runs.
 */
function notifyOption(whose: Localized): OptionSpec {
  return {
    type: "string",
    value: "CMD|URL",
    default: { en: "none", zh: "无" },
    help: {
      en: `Tell someone when a run pauses for a person or ends (done, goal not met, failed): a shell command (gets the JSON on stdin and in FLOWER_NOTIFY_* variables) or an http(s) URL (a POST of the JSON). A notifier that fails or takes over ${DEFAULTS.notifyTimeoutMs / 1000} s is ended and said once; the run is not affected. ${whose.en}`,
      zh: `运行停下等人或结束(完成、目标未达成、失败)时通知别人:一条 shell 命令(JSON 从 stdin 和 FLOWER_NOTIFY_* 变量拿到)或一个 http(s) 地址(POST 这个 JSON)。通知失败或超过 ${DEFAULTS.notifyTimeoutMs / 1000} 秒会被结束并说一次;运行不受影响。${whose.zh}`,
    },
  };
}

/** Options of a live run (`flower "<task>"`, `flower continue`). */
const LIVE: Record<string, OptionSpec> = {
  window: {
    type: "string",
    numeric: true,
    value: "N",
    default: {
      en: "guessed from the model name: 1000000, 200000 for haiku",
      zh: "按模型名猜:1000000,haiku 为 200000",
    },
    help: {
      en: `The model's context window in tokens (integer >= ${MIN_WINDOW}; below ${DEFAULTS.comfortableWindow} a note says generations will be short). The handoff line is window - ${DEFAULTS.headroom}.`,
      zh: `模型的上下文窗口,单位 token(整数,>= ${MIN_WINDOW};低于 ${DEFAULTS.comfortableWindow} 会提示每代很短)。换代线是 window - ${DEFAULTS.headroom}。`,
    },
  },
  "handoff-rule": {
    type: "string",
    value: "RULE",
    default: { en: "line", zh: "line" },
    help: {
      en: `When to hand off: line (at the handoff line, window - ${DEFAULTS.headroom}) or cost (as soon as re-reading the context has cost as much as one handoff: far earlier and far more often, the cheapest rule measured on long jobs).`,
      zh: `何时换代:line(到换代线,即窗口减 ${DEFAULTS.headroom})或 cost(一旦反复读上下文花掉的已等于一次交接:换得更早更勤,长任务实测最省)。`,
    },
  },
  "drift-after": {
    type: "string",
    numeric: true,
    value: "N",
    default: { en: `${DEFAULTS.driftAfter}`, zh: `${DEFAULTS.driftAfter}` },
    help: {
      en: "Pause at a handoff for a person when N generations in a row made no newly passing goal check and changed no file (their progress is shown at each handoff); 0 turns the watch off.",
      zh: "连续 N 代既没有新通过的目标检查、也没有改动文件时,在交接处停下等人(每次交接都显示进展);0 关掉这个看守。",
    },
  },
  "no-handoff": {
    type: "boolean",
    default: { en: "off (handoff on)", zh: "关(换代开着)" },
    help: {
      en: "No handoff generations: the SDK's auto-compact stays on.",
      zh: "不换代:SDK 的自动压缩保持开启。",
    },
  },
  verbose: VERBOSE_RUN,
  review: {
    type: "boolean",
    default: { en: "off", zh: "关" },
    help: {
      en: "After the work (and the goal's checks) pass, a read-only reviewer with a fresh context judges each acceptance criterion; one not met sends the work back.",
      zh: "工作(和目标检查)通过后,由一位上下文全新、只读的评审逐条判断验收标准;有未满足的就退回重做。",
    },
  },
  wait: {
    type: "boolean",
    default: { en: "off (a step driven elsewhere is an error)", zh: "关(别处正在驱动这一步就报错)" },
    help: {
      en: "When another live process drives the step, wait for it to finish, then go on.",
      zh: "别的进程正在驱动这一步时,等它结束再接着做。",
    },
  },
  workspace: {
    type: "string",
    value: "DIR",
    default: { en: ". (the current directory)", zh: ".(当前目录)" },
    help: { en: "The agent's working directory.", zh: "智能体的工作目录。" },
  },
  ...RUN_DIR,
  ...STORE,
  model: {
    type: "string",
    value: "NAME",
    default: { en: "ANTHROPIC_MODEL, else the CLI's default", zh: "ANTHROPIC_MODEL,否则用 CLI 的默认值" },
    help: {
      en: "Model alias or id of the coordinator (subagents inherit it).",
      zh: "协调者的模型别名或 id(子代理继承它)。",
    },
  },
  "max-budget-usd": {
    type: "string",
    numeric: true,
    value: "USD",
    default: { en: "no cap", zh: "不设上限" },
    help: {
      en: "Budget cap per session, in dollars (not for the handoff-writing turn).",
      zh: "每个会话的预算上限,单位美元(写交接的那一轮不受限)。",
    },
  },
  budget: {
    type: "string",
    numeric: true,
    value: "USD",
    default: { en: "none (a continue: the recorded one)", zh: "不设(continue:沿用记下的)" },
    help: {
      en: "The run's budget in dollars, over everything it spends (every step, generation, handoff, subagent, guard round and reviewer): reached, it stops at a message boundary (budget reached, exit 1); flower continue --budget <more> goes on.",
      zh: "整次运行的预算(美元),算上它花的一切(每一步、每一代、交接、子代理、守卫轮次和评审):用完就在消息边界停下(预算用完,退出码 1);flower continue --budget <更多> 接着走。",
    },
  },
  notify: notifyOption({
    en: "Kept for the run on this machine: a later flower continue without it tells the same target.",
    zh: "在这台机器上随运行保存:之后的 flower continue 不给也照样通知。",
  }),
  ...JSON_OUT,
  ...LANG,
};

/** Options of the default run's workflow (requirements → goal → work). */
const YES: Record<string, OptionSpec> = {
  yes: {
    type: "boolean",
    short: "y",
    default: {
      en: "off (pause after the requirements are frozen)",
      zh: "关(需求冻结后停下等人看)",
    },
    help: {
      en: "Run straight through: do not pause after the requirements for a person to read and edit them.",
      zh: "一口气跑完:需求冻结后不停下等人阅读和修改。",
    },
  },
};

/** `--direct` of a new run (`flower "<task>"`, `flower submit`). */
const DIRECT: Record<string, OptionSpec> = {
  direct: {
    type: "boolean",
    default: {
      en: "off (requirements → goal → work)",
      zh: "关(需求 → 目标 → 干活)",
    },
    help: {
      en: "Only the work step: the coordinator starts on the task as typed, with no requirements or goal document.",
      zh: "只跑干活这一步:协调者直接按原话做任务,不写需求确认书和目标。",
    },
  },
};

/** `--workspace` of the commands on a run's work: the checkout whose repository gets the branch. */
const WORK_WORKSPACE: Record<string, OptionSpec> = {
  workspace: {
    type: "string",
    value: "DIR",
    default: { en: ". (the current directory)", zh: ".(当前目录)" },
    help: {
      en: "The checkout: its repository gets the run's branch flower/<run>; its shadow repository (in --run-dir) keeps the checkpoints read here.",
      zh: "检出的目录:运行的分支 flower/<run> 放进它的仓库;这里读到的检查点存在它的影子仓库里(在 --run-dir 下)。",
    },
  },
};

/** Options every command on a run's work shares. */
const WORK: Record<string, OptionSpec> = { ...WORK_WORKSPACE, ...RUN_DIR, ...STORE, ...LANG, ...HELP };

/** The fleet's commands that only change a run's row (`approve`, `cancel`). */
const FLEET_ACTION: Record<string, OptionSpec> = { ...STORE, ...JSON_OUT, ...LANG, ...HELP };

export const COMMAND_OPTIONS: Record<CommandName, Record<string, OptionSpec>> = {
  run: {
    ...LIVE,
    ...YES,
    ...DIRECT,
    worktree: {
      type: "boolean",
      default: { en: "off (the run works in this checkout)", zh: "关(运行就在这份检出里做)" },
      help: {
        en: "Work in a git worktree of its own (runs/worktrees/<run>, at HEAD with your uncommitted changes), not in this checkout; flower apply <run> brings the work in.",
        zh: "在它自己的 git worktree 里做(runs/worktrees/<运行>,从 HEAD 开始并带上你未提交的改动),不动这份检出;flower apply <运行> 把成果合进来。",
      },
    },
    step: {
      type: "string",
      value: "NAME",
      default: { en: "made from the task's first words", zh: "取任务的开头几个词" },
      help: { en: "Name of the step in the manifest.", zh: "这一步在 manifest 里的名字。" },
    },
    version: {
      type: "boolean",
      short: "V",
      default: { en: "off", zh: "关" },
      help: { en: "Print the version of flower-agent and exit.", zh: "打印 flower-agent 的版本号后退出。" },
    },
    ...HELP,
  },
  continue: {
    ...LIVE,
    ...YES,
    "reread-goal": {
      type: "boolean",
      default: {
        en: "off (the goal recorded when the work began)",
        zh: "关(用工作开始时记下的目标)",
      },
      help: {
        en: "Use the goal file as it is on disk now. Once the work has begun, its guard runs the goal recorded then; a goal file changed afterwards is reported and not used unless you pass this. The record keeps both goals and when it switched. The goal file only: the requirements the goal step began with stay.",
        zh: "按磁盘上现在的目标文件来。工作一开始,守卫就按当时记下的目标检查;之后改过的目标文件只报告、不采用,除非给了这个选项。记录里两个版本和切换的时刻都留着。只管目标文件:目标这一步开始时用的需求不变。",
      },
    },
    prompt: {
      type: "string",
      value: "TEXT",
      default: { en: '"Continue the task." (zh: "继续。")', zh: '"继续。"(en: "Continue the task.")' },
      help: { en: "What the resumed session is told.", zh: "对接着做的会话说的话。" },
    },
    ...HELP,
  },
  runs: { ...CARRIED_WORKSPACE, ...RUN_DIR, ...STORE, ...JSON_OUT, ...LANG, ...HELP },
  show: { ...CARRIED_WORKSPACE, ...RUN_DIR, ...STORE, ...JSON_OUT, ...LANG, ...HELP },
  report: {
    out: {
      type: "string",
      value: "FILE",
      default: { en: "<run-dir>/report-<run or step>.html", zh: "<run-dir>/report-<运行或步骤>.html" },
      help: { en: "Where to write the HTML file.", zh: "HTML 文件写到哪里。" },
    },
    ...CARRIED_WORKSPACE,
    ...RUN_DIR,
    ...STORE,
    ...LANG,
    ...HELP,
  },
  forget: {
    "older-than": {
      type: "string",
      value: "DURATION",
      default: { en: "none", zh: "无" },
      help: {
        en: "Instead of one step: every run last written longer ago than this (30d, 12h, 2w), all it left; one still open or held is kept and named.",
        zh: "不指定某一步:删掉最后写入早于这个时长(30d、12h、2w)的每次运行留下的一切;还开着或有人持有的会留下并说明。",
      },
    },
    ...CARRIED_WORKSPACE,
    ...RUN_DIR,
    ...STORE,
    ...LANG,
    ...HELP,
  },
  handoff: {
    next: {
      type: "string",
      value: "TEXT",
      default: { en: "none (a plain handoff)", zh: "无(普通的交接)" },
      help: {
        en: "What the next generation should do: put first in the handoff's next step, marked as yours.",
        zh: '下一代该做什么:放在交接书"下一步"的最前面,标明是你说的。',
      },
    },
    ...CARRIED_WORKSPACE,
    ...RUN_DIR,
    ...STORE,
    ...LANG,
    ...HELP,
  },
  say: { ...CARRIED_WORKSPACE, ...RUN_DIR, ...STORE, ...LANG, ...HELP },
  submit: {
    ...YES,
    ...DIRECT,
    window: LIVE.window!,
    "handoff-rule": LIVE["handoff-rule"]!,
    budget: {
      ...LIVE.budget!,
      default: {
        en: "the worker's --budget-per-run, else none",
        zh: "worker 的 --budget-per-run,没有就不设",
      },
    },
    workspace: {
      type: "string",
      value: "DIR",
      default: { en: ". (the current directory)", zh: ".(当前目录)" },
      help: {
        en: "The checkout the run works on: its commit, uncommitted changes and unpushed commits go into the store, and a worker begins from exactly that in a worktree of its own.",
        zh: "运行要做的那份检出:它的提交、未提交的改动和未推送的提交都放进存储,worker 在自己的 worktree 里从这里开始。",
      },
    },
    notify: notifyOption({
      en: "Kept with the run: the worker that drives it tells this one (a paused run: when it waits for flower approve).",
      zh: "随运行保存:驱动它的 worker 通知这里(暂停的运行:在等 flower approve 时)。",
    }),
    ...RUN_DIR,
    ...STORE,
    ...JSON_OUT,
    ...LANG,
    ...HELP,
  },
  worker: {
    concurrency: {
      type: "string",
      numeric: true,
      value: "N",
      default: { en: "1", zh: "1" },
      help: { en: "Runs this worker drives at once.", zh: "这个 worker 同时驱动几个运行。" },
    },
    workspace: LIVE.workspace!,
    ...RUN_DIR,
    ...STORE,
    model: LIVE.model!,
    "max-budget-usd": LIVE["max-budget-usd"]!,
    "budget-per-run": {
      type: "string",
      numeric: true,
      value: "USD",
      default: { en: "none", zh: "不设" },
      help: {
        en: "The budget of a run submitted without --budget, over everything it spends: reached, the run stops at a message boundary (budget reached).",
        zh: "没带 --budget 提交的运行的预算,算上它花的一切:用完就在消息边界停下(预算用完)。",
      },
    },
    "budget-per-day": {
      type: "string",
      numeric: true,
      value: "USD",
      default: { en: "none", zh: "不设" },
      help: {
        en: "The fleet's total per UTC day, over every run's spend on the store: while it is spent no run starts (they stay queued); a run that crosses it stops at a message boundary.",
        zh: "车队每天(UTC)的总预算,算上存储里所有运行当天的花费:用完后不再开始新运行(留在队列里);跨过它的运行在消息边界停下。",
      },
    },
    notify: notifyOption({
      en: "Every run this worker drives (a paused run: when it waits for flower approve); a run's own --notify of flower submit is told too.",
      zh: "这个 worker 驱动的每个运行(暂停的运行:在等 flower approve 时);flower submit 给运行的 --notify 也照样通知。",
    }),
    ...LANG,
    ...HELP,
  },
  approve: FLEET_ACTION,
  cancel: FLEET_ACTION,
  demo: {
    workspace: {
      type: "string",
      value: "DIR",
      default: { en: "a fresh temporary directory", zh: "新建的临时目录" },
      help: {
        en: "Run the demo here (must be new or empty; it is kept).",
        zh: "在这里跑演示(必须是新的或空的目录;跑完保留)。",
      },
    },
    keep: {
      type: "boolean",
      default: { en: "off (the temporary workspace is removed)", zh: "关(临时工作区跑完删除)" },
      help: {
        en: "Keep the temporary workspace and its run directory.",
        zh: "保留临时工作区和它的运行目录。",
      },
    },
    verbose: {
      type: "boolean",
      short: "v",
      default: { en: "off", zh: "关" },
      help: { en: "Also show every tool call.", zh: "同时显示每次工具调用。" },
    },
    ...JSON_OUT,
    ...LANG,
    ...HELP,
  },
  diff: {
    generation: {
      type: "string",
      numeric: true,
      value: "N",
      default: { en: "the whole run", zh: "整次运行" },
      help: {
        en: "One generation: from its start to its last checkpoint (of the run's last step with changes, or of --step).",
        zh: "只看一代:从它开始到它最后一个检查点(运行里最后一个有改动的步骤,或 --step 指定的)。",
      },
    },
    step: {
      type: "string",
      value: "NAME",
      default: { en: "every step of the run", zh: "运行的每一步" },
      help: { en: "One step of the run (work, or a step's name).", zh: "运行中的某一步(work,或步骤名)。" },
    },
    stat: {
      type: "boolean",
      default: { en: "off (the whole patch)", zh: "关(完整补丁)" },
      help: {
        en: "Only the files and their changed lines (git diff --stat).",
        zh: "只列文件和改动行数(git diff --stat)。",
      },
    },
    "name-only": {
      type: "boolean",
      default: { en: "off", zh: "关" },
      help: { en: "Only the paths of the changed files, one per line.", zh: "只列改过的文件路径,一行一个。" },
    },
    ...WORK,
  },
  apply: {
    squash: {
      type: "boolean",
      default: { en: "off (a merge commit)", zh: "关(合并提交)" },
      help: {
        en: "Stage the run's changes squashed into one, for you to commit (git merge --squash), instead of a merge.",
        zh: "把运行的改动压成一份暂存起来由你提交(git merge --squash),而不是合并提交。",
      },
    },
    ...WORK,
  },
  discard: WORK,
  fetch: WORK,
  rewind: {
    to: {
      type: "string",
      numeric: true,
      value: "N",
      default: { en: "required", zh: "必填" },
      help: {
        en: "The generation whose start the step goes back to (1: the step's start). `flower show <step>` lists them.",
        zh: "回到哪一代的开头(1:这一步的开头)。`flower show <步骤>` 列出各代。",
      },
    },
    turn: {
      type: "string",
      numeric: true,
      value: "T",
      default: { en: "none (the generation's start)", zh: "无(那一代的开头)" },
      help: {
        en: "Go back to the end of turn T of that generation instead: its files as that turn's calls left them, its conversation resumed from there by flower continue.",
        zh: "改为退回到那一代第 T 轮结束时:文件是那一轮的调用留下的样子,flower continue 从那里接着这段对话。",
      },
    },
    force: {
      type: "boolean",
      default: { en: "off (your edits refuse the rewind)", zh: "关(有你的改动就拒绝)" },
      help: {
        en: "Put files back even where you changed them since the run's last checkpoint (your version is kept in a checkpoint first).",
        zh: "即使你在运行的最后一个检查点之后改过,也把文件放回去(你的版本先存进一个检查点)。",
      },
    },
    ...WORK,
  },
  serve: {
    port: {
      type: "string",
      numeric: true,
      value: "N",
      default: { en: "7733 (0: any free port)", zh: "7733(0:任一空闲端口)" },
      help: { en: "The port the page listens on.", zh: "页面监听的端口。" },
    },
    host: {
      type: "string",
      value: "ADDRESS",
      default: { en: "127.0.0.1 (this machine only)", zh: "127.0.0.1(只有本机)" },
      help: {
        en: "The address to listen on; another address lets other machines see the page (actions still need the token).",
        zh: "监听的地址;换成别的地址,别的机器也能看这个页面(操作仍要令牌)。",
      },
    },
    "allow-actions": {
      type: "boolean",
      default: { en: "off (read-only)", zh: "关(只读)" },
      help: {
        en: "Show approve and cancel buttons; each request needs the random token printed at start.",
        zh: "显示批准和取消按钮;每个请求都要带启动时打印的随机令牌。",
      },
    },
    ...CARRIED_WORKSPACE,
    ...RUN_DIR,
    ...STORE,
    ...LANG,
    ...HELP,
  },
};
