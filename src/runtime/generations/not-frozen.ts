/**
 * A handoff that could not be frozen to its file (a full disk, a read-only notes folder). The switch
 * goes on without the file — the successor's prompt is kept in the record, as without a workbench — and
 * the record says why, so nobody looks for a file that was never written.
 */
import type { Locale } from "../../locale/locale.js";

/** An error from the file system (it carries an errno code such as ENOSPC, EROFS, EACCES). */
export function isFileSystemError(error: unknown): error is NodeJS.ErrnoException & { code: string } {
  return (
    error instanceof Error &&
    typeof (error as NodeJS.ErrnoException).code === "string" &&
    typeof (error as NodeJS.ErrnoException).syscall === "string"
  );
}

export const NOT_FROZEN: Readonly<Record<Locale, (why: string) => string>> = {
  zh: (why) => `交接没能写进文件(${why}),接班会话从记录里的副本开始`,
  en: (why) => `handoff not frozen to a file (${why}); the successor starts from the record's copy`,
};
