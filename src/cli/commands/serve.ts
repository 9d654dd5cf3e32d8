/**
 * `flower serve`: the live page of every run (serve/server.ts) until Ctrl-C or SIGTERM. Options:
 * command-line/command-options.ts `serve`; what the page reads and may do: page/serve-source.ts; words:
 * page/serve-terminal-text.ts, command-line/usage-text.ts.
 */
import { EXIT, UsageError } from "../../errors.js";
import { resolveLocale } from "../../locale/locale.js";
import { serveRuns } from "../../serve/server.js";
import { parseLang, parseNonEmpty, type ParsedCommand } from "../command-line/args.js";
import { openServeSource } from "../page/serve-source.js";
import { SERVE_LINES } from "../page/serve-terminal-text.js";
import { USAGE_TEXT } from "../command-line/usage-text.js";

/**
 * `flower serve`: the live page of every run of the run directory or the shared store (serve/server.ts),
 * until Ctrl-C (or SIGTERM), which closes every open page's stream and the store and exits 0: stopping
 * the page is the normal way to end it, and the runs it shows are not touched.
 */
export async function serveCommand(parsed: ParsedCommand): Promise<number> {
  const locale = resolveLocale(parseLang(parsed.values.lang));
  const lines = SERVE_LINES[locale];
  if (parsed.positionals.length > 0)
    throw new UsageError(USAGE_TEXT[locale].unexpected("serve", parsed.positionals[0]!));
  const port = parsePort(parsed.values.port, lines.port);
  const host = parseNonEmpty("--host", parsed.values.host, locale);
  const allowActions = parsed.values["allow-actions"] === true;
  const { source, actions } = openServeSource(parsed.values, locale);
  let served;
  try {
    served = await serveRuns({
      source,
      actions,
      ...(port !== undefined ? { port } : {}),
      ...(host !== undefined ? { host } : {}),
      allowActions,
      locale,
    });
  } catch (error) {
    await source.close();
    // A port in use or an address this machine does not have: the person's to change, said plainly.
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EADDRINUSE" || code === "EACCES" || code === "EADDRNOTAVAIL")
      throw new UsageError(lines.listen(`${host ?? "127.0.0.1"}:${port ?? 7733}`, code));
    throw error;
  }
  const say = (line: string) => process.stdout.write(`${line}\n`);
  say(lines.serving(source.where));
  say(lines.open(served.actionsUrl ?? served.url));
  say(served.token !== null ? lines.token(served.token) : lines.readOnly);
  say(lines.stop);
  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      resolve();
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
  await served.close();
  say(lines.stopped);
  return EXIT.ok;
}

function parsePort(
  value: string | boolean | undefined,
  message: (value: string) => string,
): number | undefined {
  if (value === undefined) return undefined;
  const text = String(value).trim();
  const port = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isInteger(port) || port > 65_535) throw new UsageError(message(text));
  return port;
}
