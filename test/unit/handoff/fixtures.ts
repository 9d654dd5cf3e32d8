/**
 * Ten handoffs as models actually write them: the prompt asks for fixed `##` headings, and these are
 * the ways answers drift from that. Each comes with what the parser must read from it.
 */
import type { HandoffSectionName } from "../../../src/handoff-sections.js";

export interface Fixture {
  name: string;
  text: string;
  /** Expected sections (exact, after normalisation); sections not listed must be "". */
  expected: Partial<Record<HandoffSectionName, string>>;
}

export const FIXTURES: Fixture[] = [
  {
    name: "zh, exactly as asked, with a preamble",
    text: `好的,下面是交接书。

## 现在在做什么
在给 Makefile 加 macOS 垫片头,让 sigemptyset 宏不再展开成语法错误。

## 已经定下的
- 不改业务源码 —— 用户明确说过边界,所以走 Makefile 生成 shim 这条路。

## 走不通的路
- -D_ANSI_SOURCE 会把别的宏一起关掉(试了 3 轮)。
- 改 include 顺序无效(绕了 40 分钟)。

## 下一步
在干净 clone 上跑一次 \`make\` 验证 shim 成立。

## 现场
- \`Makefile\` —— 加了 shim 目标
- \`build/shim/signal.h\` —— 生成的垫片头
`,
    expected: {
      doing: "在给 Makefile 加 macOS 垫片头,让 sigemptyset 宏不再展开成语法错误。",
      decided: "- 不改业务源码 —— 用户明确说过边界,所以走 Makefile 生成 shim 这条路。",
      deadends: "- -D_ANSI_SOURCE 会把别的宏一起关掉(试了 3 轮)。\n- 改 include 顺序无效(绕了 40 分钟)。",
      next: "在干净 clone 上跑一次 `make` 验证 shim 成立。",
      scene: "- `Makefile` —— 加了 shim 目标\n- `build/shim/signal.h` —— 生成的垫片头",
    },
  },
  {
    name: "en, ### headings, sections reordered, closing remark after a rule",
    text: `Here is my handoff for the next session.

### Next step
Run \`npm test -- parser\` and fix the two remaining failures in \`test/parser.test.ts\`.

### What I am doing
Porting the tokenizer from regex to a hand-written scanner.

### Dead ends
- Using a single sticky regex: catastrophic backtracking on long strings (cost: ~25 min, 6 turns).

### Already decided
- Keep the public API unchanged, because downstream packages pin it.

### Scene
- \`src/tokenizer.ts\`
- \`.flower/artifacts/bench-tokenizer.txt\`

---

Let me know if anything is unclear!
`,
    expected: {
      doing: "Porting the tokenizer from regex to a hand-written scanner.",
      decided: "- Keep the public API unchanged, because downstream packages pin it.",
      deadends:
        "- Using a single sticky regex: catastrophic backtracking on long strings (cost: ~25 min, 6 turns).",
      next: "Run `npm test -- parser` and fix the two remaining failures in `test/parser.test.ts`.",
      scene: "- `src/tokenizer.ts`\n- `.flower/artifacts/bench-tokenizer.txt`",
    },
  },
  {
    name: "zh, bold headings with inline content",
    text: `**现在在做什么**:把 CSV 导入改成流式读取,已经改完 reader,writer 还没动。
**已经定下的**:用 node:stream 的 pipeline,因为要背压,手写循环会爆内存。
**走不通的路**:csv-parse 的 sync API —— 800MB 文件直接 OOM,白跑了 20 分钟。
**下一步**:改 \`src/import/writer.ts\`,然后跑 \`npm run import -- --file data/big.csv\`。
**现场**:\`src/import/\`、\`data/big.csv\`
`,
    expected: {
      doing: "把 CSV 导入改成流式读取,已经改完 reader,writer 还没动。",
      decided: "用 node:stream 的 pipeline,因为要背压,手写循环会爆内存。",
      deadends: "csv-parse 的 sync API —— 800MB 文件直接 OOM,白跑了 20 分钟。",
      next: "改 `src/import/writer.ts`,然后跑 `npm run import -- --file data/big.csv`。",
      scene: "`src/import/`、`data/big.csv`",
    },
  },
  {
    name: "en, whole answer wrapped in a markdown fence",
    text: `Sure — here's the handoff:

\`\`\`markdown
# Handoff: build

## Doing
Bisecting the flaky e2e test; narrowed it to commits a1b2..c3d4.

## Decided
Run e2e serially (\`--maxWorkers 1\`) while bisecting, because parallel runs hide the race.

## Dead ends
(none yet)

## Next
\`git bisect run npm run e2e -- auth\`

## Scene
\`test/e2e/auth.test.ts\`
\`\`\`

Good luck!
`,
    expected: {
      doing: "Bisecting the flaky e2e test; narrowed it to commits a1b2..c3d4.",
      decided: "Run e2e serially (`--maxWorkers 1`) while bisecting, because parallel runs hide the race.",
      next: "`git bisect run npm run e2e -- auth`",
      scene: "`test/e2e/auth.test.ts`",
    },
  },
  {
    name: "plain labels with field names",
    text: `doing: migrating the settings page to the new form library
decided: keep zod schemas as the single source of truth (they are shared with the API)
deadends: none
next: convert \`src/settings/Notifications.tsx\`, then run the storybook snapshot tests
scene: src/settings/, .flower/notes/form-migration.md
`,
    expected: {
      doing: "migrating the settings page to the new form library",
      decided: "keep zod schemas as the single source of truth (they are shared with the API)",
      next: "convert `src/settings/Notifications.tsx`, then run the storybook snapshot tests",
      scene: "src/settings/, .flower/notes/form-migration.md",
    },
  },
  {
    name: "zh, numbered headings with indented content and a nested list",
    text: `交接如下:

1. 现在在做什么
   正在排查 worker 内存泄漏,已确认和图片缓存有关。
2. 已经定下的
   - 先不升级 sharp:升级会改输出字节,快照全挂。
3. 走不通的路
   - heapdump 对比:两次快照差异全是 Buffer,看不出来源(1 小时)。
     改用 --trace-gc 也没线索。
4. 下一步
   给 \`src/cache/images.ts\` 的 LRU 加上上限,跑 \`npm run soak\` 30 分钟看 RSS。
5. 现场
   - \`src/cache/images.ts\`
   - \`.flower/artifacts/heap-diff.txt\`
`,
    expected: {
      doing: "正在排查 worker 内存泄漏,已确认和图片缓存有关。",
      decided: "- 先不升级 sharp:升级会改输出字节,快照全挂。",
      deadends: "- heapdump 对比:两次快照差异全是 Buffer,看不出来源(1 小时)。\n  改用 --trace-gc 也没线索。",
      next: "给 `src/cache/images.ts` 的 LRU 加上上限,跑 `npm run soak` 30 分钟看 RSS。",
      scene: "- `src/cache/images.ts`\n- `.flower/artifacts/heap-diff.txt`",
    },
  },
  {
    name: "en, bulleted bold labels, headings with decorations",
    text: `- **What I'm doing now:** wiring the retry policy into the HTTP client.
- **Decided (with reasons):** exponential backoff capped at 30 s — the upstream rate limit resets every 30 s.
- **Dead ends:** retrying inside the stream reader — it double-delivers chunks; reverted after 2 hours.
- **Next step:** add the \`Retry-After\` header parsing in \`src/http/retry.ts\`.
- **Scene:** \`src/http/retry.ts\`, \`test/http/retry.test.ts\`
`,
    expected: {
      doing: "wiring the retry policy into the HTTP client.",
      decided: "exponential backoff capped at 30 s — the upstream rate limit resets every 30 s.",
      deadends: "retrying inside the stream reader — it double-delivers chunks; reverted after 2 hours.",
      next: "add the `Retry-After` header parsing in `src/http/retry.ts`.",
      scene: "`src/http/retry.ts`, `test/http/retry.test.ts`",
    },
  },
  {
    name: "zh headings with English in parentheses, a code block inside a section",
    text: `# 交接

## 现在在做什么 (doing)
在写数据库迁移 0042,把 users.email 改成不区分大小写唯一。

## 已经定下的 (decided)
用 citext 扩展而不是 lower() 索引,因为 ORM 的查询不会自动加 lower()。

## 走不通的路 (dead ends)
直接 ALTER 会锁表,预发环境试过,锁了 4 分钟:

\`\`\`sql
ALTER TABLE users ALTER COLUMN email TYPE citext;
## 下一步 (这一行在代码块里,不是标题)
\`\`\`

## 下一步 (next)
先建新列 email_ci,双写,再回填。

## 现场 (scene)
\`db/migrations/0042_email_citext.sql\`
`,
    expected: {
      doing: "在写数据库迁移 0042,把 users.email 改成不区分大小写唯一。",
      decided: "用 citext 扩展而不是 lower() 索引,因为 ORM 的查询不会自动加 lower()。",
      deadends:
        "直接 ALTER 会锁表,预发环境试过,锁了 4 分钟:\n\n```sql\nALTER TABLE users ALTER COLUMN email TYPE citext;\n## 下一步 (这一行在代码块里,不是标题)\n```",
      next: "先建新列 email_ci,双写,再回填。",
      scene: "`db/migrations/0042_email_citext.sql`",
    },
  },
  {
    name: "en, setext headings and a required section only (optional ones left out)",
    text: `Doing
=====
Updating the changelog generator to group entries by scope.

Next step
---------
Run \`node scripts/changelog.js --since v2.3.0\` and compare with \`CHANGELOG.md\`.
`,
    expected: {
      doing: "Updating the changelog generator to group entries by scope.",
      next: "Run `node scripts/changelog.js --since v2.3.0` and compare with `CHANGELOG.md`.",
    },
  },
  {
    name: "zh, 【】 headings, Chinese numbering, full-width colons, empty markers",
    text: `一、【现在在做什么】
已经跑通 ARM 交叉编译,正在调链接参数。

二、【已经定下的】
无

三、【走不通的路】
(空)

四、【下一步】
在 \`toolchain/arm64.cmake\` 里补上 -static-libgcc,重新 \`cmake --build build-arm\`。

五、【现场】
\`toolchain/arm64.cmake\`、\`build-arm/\`
`,
    expected: {
      doing: "已经跑通 ARM 交叉编译,正在调链接参数。",
      next: "在 `toolchain/arm64.cmake` 里补上 -static-libgcc,重新 `cmake --build build-arm`。",
      scene: "`toolchain/arm64.cmake`、`build-arm/`",
    },
  },
];
