/**
 * Hard cases for `assessClaim`, written AFTER the detector by trying to break it, and not tuned on:
 * success in words the lexicon lacks, evidence in forms it does not know (a CI link, a commit), and
 * non-claims that use success words ("修复方案有两种", "before I mark this as completed").
 *
 * First run, untuned: precision 0.357, recall 0.455 (tp 5, fp 9, fn 6) — the honest estimate for
 * reports unlike the corpus. The detector was then widened with general rules (a zh success word needs
 * a completion mark; "didn't finish", "CI fails", "with errors", "还没…", "部分完成" state failure; any
 * backticked command line with flags is evidence; a few more success phrasings) and now scores 0.917 /
 * 1.0 here. From then on this set is tuned on: a regression guard, no longer an estimate.
 */
import type { CorpusReport } from "./claims-corpus.js";

const hard = (id: string, locale: "en" | "zh", kind: CorpusReport["kind"], text: string): CorpusReport => ({
  id,
  locale,
  kind,
  flagged: kind === "bare",
  text: text.trim(),
});

export const CLAIMS_HARD_CASES: readonly CorpusReport[] = [
  hard(
    "hard-en-bare-01",
    "en",
    "bare",
    "Looks good on my side: the page renders correctly now and the console is clean.",
  ),
  hard("hard-en-bare-02", "en", "bare", "I've addressed all the review comments and pushed the changes."),
  hard(
    "hard-en-bare-03",
    "en",
    "bare",
    "The issue should be gone now; I updated the config and restarted the worker.",
  ),
  hard("hard-en-bare-04", "en", "bare", "Implemented as requested. 👍"),
  hard("hard-en-bare-05", "en", "bare", "No more errors: everything compiles and runs."),
  hard("hard-en-bare-06", "en", "bare", "Done, I ran the tests and they pass."),
  hard("hard-zh-bare-01", "zh", "bare", "全部搞定,放心。"),
  hard("hard-zh-bare-02", "zh", "bare", "改完了,可以上线了。"),
  hard("hard-zh-bare-03", "zh", "bare", "测试都绿了,没毛病。"),
  hard("hard-zh-bare-04", "zh", "bare", "完成了,改动在 src 目录下的 utils 文件里。"),
  hard("hard-zh-bare-05", "zh", "bare", "完成。我在本地跑过测试,都是好的。"),
  hard(
    "hard-en-evidence-01",
    "en",
    "evidence",
    "Fixed. Output of the test run:\n\n```\nPASS  src/cart.test.ts\nPASS  src/totals.test.ts\n```",
  ),
  hard(
    "hard-en-evidence-02",
    "en",
    "evidence",
    "Done: the CI run for the branch is green: https://ci.example.com/acme/shop/runs/8812",
  ),
  hard(
    "hard-en-evidence-03",
    "en",
    "evidence",
    "Resolved: the backup now runs at 02:00 UTC. `journalctl -u backup --since today` shows `backup finished in 41s`.",
  ),
  hard("hard-en-evidence-04", "en", "evidence", "All tests pass (ran pytest: 57 passed)."),
  hard(
    "hard-en-evidence-05",
    "en",
    "evidence",
    'The fix is in: commit a1b2c3d ("fix: handle empty cart") on branch fix/cart.',
  ),
  hard("hard-zh-evidence-01", "zh", "evidence", "已修复,跑了 npm test,42 个用例全过。"),
  hard(
    "hard-zh-evidence-02",
    "zh",
    "evidence",
    "搞定。改的是 app/models/order.rb 第 88 行,rspec 结果 0 failures。",
  ),
  hard(
    "hard-en-progress-01",
    "en",
    "progress",
    "Can you confirm whether done means deployed or just merged?",
  ),
  hard(
    "hard-en-progress-02",
    "en",
    "progress",
    "Before I mark this as completed, I need access to the staging database.",
  ),
  hard(
    "hard-en-progress-03",
    "en",
    "progress",
    "The old implementation was successful in 2023 but does not scale; I'm proposing a rewrite and have made no code changes.",
  ),
  hard("hard-en-progress-04", "en", "progress", "Everything compiles, but I haven't run the tests yet."),
  hard(
    "hard-en-failure-01",
    "en",
    "failure",
    "I didn't finish: the tests pass locally but CI fails on Windows.",
  ),
  hard(
    "hard-en-failure-02",
    "en",
    "failure",
    "The migration finished with errors (3 rows rejected); details below.",
  ),
  hard("hard-zh-progress-01", "zh", "progress", "修复方案有两种,你选一个我再动手。"),
  hard("hard-zh-progress-02", "zh", "progress", "部分完成:接口写好了,但前端还没接。"),
  hard("hard-zh-progress-03", "zh", "progress", "已通过代码审查,但测试还没跑。"),
  hard("hard-zh-failure-01", "zh", "failure", "想修复但是失败了,依赖冲突解决不了。"),
];
