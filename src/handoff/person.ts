/**
 * A handoff a person asked for (`flower handoff <step> [--next "…"]`): the words go into `next`, first and
 * marked as the person's, whatever the model writes (as the cut calls and the plan do), and the writing
 * turn is told who asked and why the context is not full, so the writer puts them first too.
 *
 * First in `next`, not last: the person who stopped the generation knows what should happen next better
 * than the generation did; the model's own next step follows, and a person editing the frozen file sees
 * whose line is whose.
 */
import type { Locale } from "../locale/locale.js";
import { Handoff } from "./handoff-document.js";

/** Who asked and what they want next (null: a plain handoff at their request). */
export interface PersonsRequest {
  /** `user@host`. */
  by: string;
  next: string | null;
}

const TEXT: Record<
  Locale,
  {
    line: (by: string, words: string) => string;
    plain: (by: string) => string;
    prompt: (line: string) => string;
  }
> = {
  zh: {
    line: (by, words) => `- 来自 ${by}(flower handoff):${words}`,
    plain: (by) => `- ${by} 用 flower handoff 要求了这次交接(没有留话)。`,
    prompt: (line) =>
      `注意:这次交接是一个人用 flower handoff 要求的,不是上下文满了 —— 照样把交接书写完整。他的话放在"下一步"的最前面,原样照抄:\n${line}\n接手的人先做这件事,再接着你的下一步。`,
  },
  en: {
    line: (by, words) => `- From ${by} via flower handoff: ${words}`,
    plain: (by) => `- ${by} asked for this handoff via flower handoff (no words given).`,
    prompt: (line) =>
      `Note: a person asked for this handoff with flower handoff; the context is not what ended this generation — write the whole handoff all the same. Put their words first under "Next step", copied as they are:\n${line}\nThe successor does that first, then goes on with your next step.`,
  },
};

/** The line `next` gets: the person's words marked as theirs, or a note that they asked without words. */
export function personsLine(request: PersonsRequest, locale: Locale): string {
  const words = request.next?.replace(/\s+/g, " ").trim() ?? "";
  return words ? TEXT[locale].line(request.by, words) : TEXT[locale].plain(request.by);
}

/** The writing turn's prompt with the person's request named just before its closing line. */
export function withPersonsPrompt(prompt: string, request: PersonsRequest | null, locale: Locale): string {
  if (request === null) return prompt;
  const closing = prompt.lastIndexOf("\n\n");
  const note = TEXT[locale].prompt(personsLine(request, locale));
  return `${prompt.slice(0, closing)}\n\n${note}${prompt.slice(closing)}`;
}

/**
 * The handoff with the person's line first in `next`. A model that copied the line already put it there:
 * it is moved first, not added twice. The handoff itself without a request.
 */
export function withPersonsWords(handoff: Handoff, request: PersonsRequest | null, locale: Locale): Handoff {
  if (request === null) return handoff;
  const line = personsLine(request, locale);
  const rest = handoff.next
    .split("\n")
    .filter((text) => text.trim() !== line)
    .join("\n")
    .trim();
  const next = rest ? `${line}\n\n${rest}` : line;
  return new Handoff({ ...handoff.sections(), step: handoff.step, notes: handoff.notes, next });
}
