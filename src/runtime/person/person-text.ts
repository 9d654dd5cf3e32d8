/**
 * How a person's messages read when they open a step that ends in a document (the requirements, the
 * goal): put into the step's prompt, since the step's last answer must be its document and a message
 * sent at a boundary could come after it (session-run.ts `lateMessages`).
 */
import type { Locale } from "../../locale/locale.js";
import type { PersonMessage } from "../../records/person-messages.js";

export const PERSON_SAID: Readonly<Record<Locale, (messages: readonly PersonMessage[]) => string>> = {
  en: (messages) =>
    messages
      .map(
        (message) =>
          `A person sent this run a message (flower say), ${message.by} at ${message.at}:\n${message.text}`,
      )
      .join("\n\n"),
  zh: (messages) =>
    messages
      .map(
        (message) => `有人给这次运行发来一句话(flower say),${message.by} 于 ${message.at}:\n${message.text}`,
      )
      .join("\n\n"),
};
