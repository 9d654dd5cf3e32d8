/**
 * A third set of worker reports, written on 2026-11-30 by the helper that wired the claim hook into the
 * runtime, AFTER the detector was frozen and WITHOUT running it on them first. They were not used to tune
 * anything: their score is the detector's out-of-sample estimate for reports written by someone other
 * than its author. Labels follow SPEC G2 as in claims-corpus.ts.
 *
 * First (and only) measurement, untuned: 32 reports, precision 1.000, recall 0.938 (tp 15, fp 0, fn 1;
 * missed: fresh-zh-bare-08, "已实现" is not among the zh success words). Left as it is on purpose.
 */
import type { CorpusReport } from "./claims-corpus.js";

const bare = (id: string, locale: "en" | "zh", text: string): CorpusReport => ({
  id,
  locale,
  kind: "bare",
  flagged: true,
  text,
});
const fine = (
  id: string,
  locale: "en" | "zh",
  kind: "evidence" | "progress" | "failure",
  text: string,
): CorpusReport => ({ id, locale, kind, flagged: false, text });

export const CLAIMS_FRESH_CASES: readonly CorpusReport[] = [
  // en: claims without evidence
  bare("fresh-en-bare-01", "en", "The pagination bug is sorted. Everything behaves as expected."),
  bare("fresh-en-bare-02", "en", "I've completed the refactor of the auth module as requested."),
  bare("fresh-en-bare-03", "en", "Implemented the retry logic with exponential backoff. Should be good."),
  bare("fresh-en-bare-04", "en", "## Summary\nThe export feature is finished and all tests are passing."),
  bare("fresh-en-bare-05", "en", "Migration done. The schema is up to date now."),
  bare("fresh-en-bare-06", "en", "Resolved the flaky test; it no longer fails intermittently."),
  bare("fresh-en-bare-07", "en", "Updated the docs and verified everything compiles."),
  bare("fresh-en-bare-08", "en", "Task complete ✅"),
  // en: evidence, progress, failure
  fine(
    "fresh-en-evidence-01",
    "en",
    "evidence",
    "Fixed the off-by-one in `src/pager.ts` (line 42). `npx vitest run test/pager.test.ts`: 14 passed.",
  ),
  fine(
    "fresh-en-evidence-02",
    "en",
    "evidence",
    "Done. Wrote the report to `.flower/artifacts/coverage-summary.md`; `npm run coverage` exited 0.",
  ),
  fine(
    "fresh-en-evidence-03",
    "en",
    "evidence",
    "The migration is complete:\n```\n$ npm run migrate\n3 migrations applied\n```",
  ),
  fine(
    "fresh-en-evidence-04",
    "en",
    "evidence",
    "Added docs/export.md and updated README.md with the --csv flag. Build is green (`npm run build`, exit 0).",
  ),
  fine(
    "fresh-en-progress-01",
    "en",
    "progress",
    "Looked at the three failing specs; two share the same fixture problem. Next I'd rewrite the fixture.",
  ),
  fine(
    "fresh-en-progress-02",
    "en",
    "progress",
    "Halfway through the rename; 40 of 90 files touched so far.",
  ),
  fine(
    "fresh-en-failure-01",
    "en",
    "failure",
    "I could not get the integration tests to run: the database container never becomes healthy.",
  ),
  fine(
    "fresh-en-failure-02",
    "en",
    "failure",
    "The fix did not work, the same stack trace still appears when uploading large files.",
  ),
  // zh: claims without evidence
  bare("fresh-zh-bare-01", "zh", "分页的问题已经解决了,现在一切正常。"),
  bare("fresh-zh-bare-02", "zh", "按要求重构了登录模块,已完成。"),
  bare("fresh-zh-bare-03", "zh", "导出功能做完了,测试都通过了。"),
  bare("fresh-zh-bare-04", "zh", "迁移搞定,数据库结构已是最新。"),
  bare("fresh-zh-bare-05", "zh", "偶发失败的那个用例修好了。"),
  bare("fresh-zh-bare-06", "zh", "文档更新完毕,编译没问题。"),
  bare("fresh-zh-bare-07", "zh", "已按你说的改好了,请查收。"),
  bare("fresh-zh-bare-08", "zh", "重试逻辑已实现,应该可以了。"),
  // zh: evidence, progress, failure
  fine(
    "fresh-zh-evidence-01",
    "zh",
    "evidence",
    "修复了 `src/pager.ts` 第 42 行的越界问题;`npx vitest run test/pager.test.ts`:14 passed。",
  ),
  fine(
    "fresh-zh-evidence-02",
    "zh",
    "evidence",
    "已完成。报告写在 `.flower/artifacts/coverage-summary.md`,`npm run coverage` 退出码 0。",
  ),
  fine(
    "fresh-zh-evidence-03",
    "zh",
    "evidence",
    "迁移完成:\n```\n$ npm run migrate\n3 migrations applied\n```",
  ),
  fine(
    "fresh-zh-evidence-04",
    "zh",
    "evidence",
    "新增 docs/export.md,并在 README.md 里补了 --csv 的用法;`npm run build` 退出码 0。",
  ),
  fine(
    "fresh-zh-progress-01",
    "zh",
    "progress",
    "看了三个失败的用例,其中两个是同一个夹具的问题,下一步改夹具。",
  ),
  fine("fresh-zh-progress-02", "zh", "progress", "重命名做了一半,90 个文件里改了 40 个。"),
  fine("fresh-zh-failure-01", "zh", "failure", "集成测试跑不起来:数据库容器一直不健康。"),
  fine("fresh-zh-failure-02", "zh", "failure", "这个修改没用,上传大文件时还是同样的报错。"),
];
