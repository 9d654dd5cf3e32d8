/** `flower serve`'s lines on the terminal, en and zh (the page's own words are in serve/serve-text.ts). */
import type { Locale } from "../../locale/locale.js";

export const SERVE_LINES: Record<
  Locale,
  {
    serving: (where: string) => string;
    open: (url: string) => string;
    token: (token: string) => string;
    readOnly: string;
    stop: string;
    stopped: string;
    port: (value: string) => string;
    listen: (address: string, code: string) => string;
  }
> = {
  en: {
    serving: (where) => `flower serve: the runs in ${where}`,
    open: (url) => `Open ${url}`,
    token: (token) =>
      `Actions on. Token: ${token} (in the address above; anyone who has it can approve and cancel runs — do not share it)`,
    readOnly: "Read-only (--allow-actions adds approve and cancel, with a token).",
    stop: "Ctrl-C stops the page (the runs go on).",
    stopped: "flower serve: stopped.",
    port: (value) => `flower serve: --port must be an integer from 0 to 65535, got "${value}"`,
    listen: (address, code) =>
      `flower serve: cannot listen on ${address} (${code}); choose another --port (0: any free one) or --host`,
  },
  zh: {
    serving: (where) => `flower serve:${where} 里的运行`,
    open: (url) => `打开 ${url}`,
    token: (token) => `已开启操作。令牌:${token}(已含在上面的地址里;拿到它的人都能批准和取消运行,不要外传)`,
    readOnly: "只读(加 --allow-actions 才有批准和取消,要凭令牌)。",
    stop: "Ctrl-C 关掉页面(运行照常继续)。",
    stopped: "flower serve:已停。",
    port: (value) => `flower serve:--port 要是 0 到 65535 的整数,收到的是 "${value}"`,
    listen: (address, code) =>
      `flower serve:无法在 ${address} 上监听(${code});换一个 --port(0:任一空闲端口)或 --host`,
  },
};
