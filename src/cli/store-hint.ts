/**
 * The `--store` part of a printed `flower continue …` line. A run whose store came from FLOWER_STORE
 * needs none: the command reads the same variable. A store given with `--store` must be repeated, or
 * the pasted command would look in the local run directory. Its password is never printed (a terminal
 * scrollback or a CI log is no place for it), and a masked one (`***`) would not work when pasted: the
 * URL is printed without it, and a note says where the pasted command finds it (PGPASSWORD, read by the
 * pg driver, or FLOWER_STORE with the whole URL).
 */
import type { Locale } from "../locale/locale.js";
import type { StoreOption } from "./command-line/store-option.js";

export interface StoreHint {
  /** The arguments to add (`["--store", url]`), or none. */
  args: string[];
  /** One line to print under the command when the password was left out; null otherwise. */
  note: string | null;
}

const NOTE: Record<Locale, string> = {
  en: "(the store's password is not printed: the command finds it in PGPASSWORD, or export FLOWER_STORE with the whole URL and leave --store out)",
  zh: "(存储的密码不会打印出来:命令会从 PGPASSWORD 读取;也可以把完整的 URL 设为 FLOWER_STORE,省掉 --store)",
};

export function storeHint(
  store: StoreOption | undefined,
  locale: Locale,
  env: NodeJS.ProcessEnv = process.env,
): StoreHint {
  const none = { args: [], note: null };
  if (store?.text === undefined) return none;
  // From the variable (or the flag repeats it): `flower continue` reads it again.
  if (store.text === (env.FLOWER_STORE?.trim() || undefined)) return none;
  if (store.spec.kind !== "postgres") return { args: ["--store", store.text], note: null };
  const url = new URL(store.text);
  if (url.password === "") return { args: ["--store", store.text], note: null };
  url.password = "";
  return { args: ["--store", url.toString()], note: NOTE[locale] };
}
