/**
 * IS_SANDBOX for a `claude` child started by root. flower runs the child with bypassPermissions, which
 * the binary refuses to root unless IS_SANDBOX is exactly "1" (binary 2.1.332 compares the string; it
 * reads "yes" or "true" as set elsewhere, but not here). It then prints
 * "--dangerously-skip-permissions cannot be used with root/sudo privileges" on stderr and exits 1.
 *
 * Chosen: a value that says "yes" in another spelling (yes, true, on, 1 with spaces, any case) is
 * normalised to "1", with a note, because that is what the person meant; unset becomes "1" (a root
 * container is the common case). A value that says "no" (0, false, no, off, anything else) is left as
 * it is: it is the person's statement that this is no sandbox, and flower does not overrule it; the
 * binary refuses, and the step fails once with the binary's words and a hint (runtime/drive/failure-class.ts).
 * Not root: left alone, the binary does not look at it for this.
 */

const SAYS_YES = new Set(["1", "true", "yes", "on", "y"]);

export interface SandboxSetting {
  /** The value the child gets (undefined: leave the variable as it is). */
  value: string | undefined;
  /** Said once to the person when a value was changed; null when nothing was. */
  note: string | null;
}

export function sandboxSetting(value: string | undefined, root: boolean): SandboxSetting {
  if (!root) return { value, note: null };
  if (value === undefined || value.trim() === "") return { value: "1", note: null };
  if (value === "1") return { value, note: null };
  if (SAYS_YES.has(value.trim().toLowerCase()))
    return {
      value: "1",
      note: `IS_SANDBOX=${JSON.stringify(value)} is passed to claude as IS_SANDBOX=1: running as root, the binary accepts only "1"`,
    };
  return { value, note: null };
}

/** Whether this process runs as root (the binary's check is on the uid). */
export function runningAsRoot(): boolean {
  return process.getuid?.() === 0;
}
