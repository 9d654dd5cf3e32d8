/** Telemetry's words on stderr, per locale: the only lines telemetry ever prints. */
import type { Locale } from "../locale/locale.js";

/** The first export that failed in this process (the later ones are not said: see export-watch.ts). */
export const EXPORT_FAILED: Readonly<Record<Locale, (url: string, error: string) => string>> = {
  zh: (url, error) => `flower: 遥测数据没能发到 ${url}: ${error}。运行不受影响;之后再发不出去,不再提示。`,
  en: (url, error) =>
    `flower: telemetry could not be sent to ${url}: ${error}. Runs are not affected; later failed exports are not reported.`,
};

/** Telemetry is on, but the optional OpenTelemetry packages are not installed. */
export const SDK_MISSING: Readonly<Record<Locale, (error: string) => string>> = {
  zh: (error) =>
    `flower: 遥测已打开,但加载不了 OpenTelemetry SDK(${error});请安装可选依赖(npm install flower-agent --include=optional)。什么都不会导出。`,
  en: (error) =>
    `flower: telemetry is on but the OpenTelemetry SDK could not be loaded (${error}); ` +
    `install the optional dependencies (npm install flower-agent --include=optional). Nothing is exported.`,
};
