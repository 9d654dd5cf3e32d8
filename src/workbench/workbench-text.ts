/**
 * The workbench's user-facing words, per locale (zh with ASCII `,:()` inside Chinese text, as every zh
 * table: locale/locale.ts).
 */
import type { Locale } from "../locale/locale.js";

export interface WorkbenchText {
  indexTitle: string;
  /** Shown instead of entries when the workbench holds no file yet. */
  emptyIndex: string;
  /** When more files exist than the index lists. */
  truncated: (total: number, shown: number) => string;
  /** Description of a binary file. */
  binary: (size: string) => string;
  /** Description of an empty file. */
  emptyFile: string;
  promptTitle: string;
  /** Where the workbench is, then the three rules. */
  location: (dir: string) => string;
  rules: readonly [reuseScripts: string, artifacts: string, notes: string];
}

export const WORKBENCH_TEXT: Readonly<Record<Locale, WorkbenchText>> = {
  zh: {
    indexTitle: "# 工作台索引",
    emptyIndex: "(空)",
    truncated: (total, shown) => `(共 ${total} 个文件,只列最新的 ${shown} 个)`,
    binary: (size) => `[二进制,${size}]`,
    emptyFile: "(空文件)",
    promptTitle: "## 工作台",
    location: (dir) => `位置:${dir}(scripts/、artifacts/、notes/ 随工作区保留)`,
    rules: [
      "先看 scripts/ 里有没有现成脚本,能复用就复用;新脚本写进 scripts/,第一行注释写明用途。",
      "长输出写到 artifacts/,回复里只给路径和结论。",
      "笔记和交接写在 notes/。",
    ],
  },
  en: {
    indexTitle: "# Workbench index",
    emptyIndex: "(empty)",
    truncated: (total, shown) => `(${total} files, only the newest ${shown} listed)`,
    binary: (size) => `[binary, ${size}]`,
    emptyFile: "(empty file)",
    promptTitle: "## Workbench",
    location: (dir) => `Location: ${dir} (scripts/, artifacts/ and notes/ stay with the workspace)`,
    rules: [
      "Check scripts/ for an existing script and reuse it; put new scripts in scripts/ with a first comment line saying what they do.",
      "Write long output to artifacts/ and reply with only path + conclusion.",
      "Notes and handoffs go in notes/.",
    ],
  },
};
