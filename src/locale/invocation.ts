/**
 * How the person's shell reaches this flower (`flower` or `npx flower`), for every line flower prints
 * for them to type next, in every layer: the continue line, `see flower runs`, `(flower diff, flower
 * apply)`, the runtime's `see flower -v`, the store's `flower cancel <run> --store …`. A project that
 * installed flower locally (`npm i -D <tarball>`) has no `flower` on its PATH: a line that says `flower
 * show …` there is "command not found" when pasted (under `npx flower`, the next-step lines said `flower
 * …` while the Ctrl-C line said `npx flower continue …`).
 *
 * The one place that knows it: the CLI's entry point decides it once, at the door, from the process's
 * environment and script (cli/command-line/invocation.ts, `detectInvocation`), and sets it here before
 * anything is printed; the library used from code, and tests, keep `flower`. Texts read it when a line
 * is made (a function or a getter), never when their module loads: the entry point's own imports load
 * before it has decided.
 */

export type Invocation = "flower" | "npx flower";

let current: Invocation = "flower";

/** What the printed lines start with; `flower` until the CLI's entry point has set it. */
export function invocation(): Invocation {
  return current;
}

/** Called once by the CLI's entry point (main.ts); the library and tests keep `flower`. */
export function setInvocation(value: Invocation): void {
  current = value;
}

/** A command line as the person types it here: `typed("show demo")` is `npx flower show demo` under npx. */
export function typed(rest: string): string {
  return rest === "" ? current : `${current} ${rest}`;
}

/** Quotes an argument of a command line printed for the person to type (`'long job'`). */
export function shellQuote(value: string): string {
  return /^[\w./:@%+=,-]+$/u.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}
