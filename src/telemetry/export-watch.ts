/**
 * A collector that is down must not be silent: the first export that fails in this process is
 * said on stderr, one line naming where it went and why, and no later one is (a run exporting every few
 * seconds to a dead collector would fill the terminal otherwise). Once per process, not per runtime: the
 * demo and a fleet worker hold several runtimes, and the collector is the same one for all of them.
 *
 * Two places notice a failure. The exporter's result, which comes only after its retries, up to its
 * export timeout (10 s by default): a refused connection is retried, and a short CLI run has exited long
 * before (it waits 2 s for what is still being sent). So the connection is watched too: a socket of the
 * exporter's own HTTP agent that fails before it is connected (refused, no such host, unreachable, a bad
 * certificate) is a failed export, said at once. Errors of a connected socket are the exporter's to
 * judge: an idle keep-alive socket the collector closed loses nothing.
 */
import type { Agent as HttpAgent } from "node:http";
import type { Agent as HttpsAgent } from "node:https";

/** What an exporter's callback gets; `code` 0 is the SDK's ExportResultCode.SUCCESS. */
interface ExportResult {
  code: number;
  error?: Error;
}

let said = false;

/** One line on stderr for the first failure in this process; nothing for the later ones. */
export function sayOnce(line: () => string): void {
  if (said) return;
  said = true;
  process.stderr.write(`${line()}\n`);
}

/** An export's error in a few words: the HTTP status a collector answered, else the network's message. */
export function describeExportError(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0)
    // localhost tried as ::1 and as 127.0.0.1, both refused: the message of each.
    return [...new Set(error.errors.map(describeExportError))].join("; ");
  if (!(error instanceof Error)) return String(error);
  const code: unknown = (error as { code?: unknown }).code;
  // OTLPExporterError: `code` is the HTTP status, the message its reason phrase.
  if (typeof code === "number") return `HTTP ${code}${error.message ? ` ${error.message}` : ""}`;
  return error.message || (typeof code === "string" ? code : error.name);
}

/** Calls `failed` with the error of every export whose result is not a success. */
export function watchResults<Items>(
  exporter: { export(items: Items, done: (result: ExportResult) => void): void },
  failed: (error: unknown) => void,
): void {
  const send = exporter.export.bind(exporter);
  exporter.export = (items, done) =>
    send(items, (result) => {
      if (result.code !== 0) failed(result.error ?? new Error("export failed"));
      done(result);
    });
}

/**
 * The exporter's HTTP agent (the exporters' `httpAgentOptions` factory; the same keep-alive agent they
 * make themselves) with each new connection watched until it is connected.
 */
export function watchedAgent(failed: (error: unknown) => void): (protocol: string) => Promise<HttpAgent> {
  return async (protocol) => {
    const secure = protocol === "https:";
    const agent: HttpAgent | HttpsAgent = secure
      ? new (await import("node:https")).Agent({ keepAlive: true })
      : new (await import("node:http")).Agent({ keepAlive: true });
    const connect = agent.createConnection.bind(agent);
    agent.createConnection = (options, callback) => {
      const socket = connect(options, callback);
      const onError = (error: Error) => failed(error);
      socket.once("error", onError);
      socket.once(secure ? "secureConnect" : "connect", () => socket.off("error", onError));
      return socket;
    };
    return agent;
  };
}
