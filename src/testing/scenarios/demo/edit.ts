/**
 * The person at the pause, played by the demo: one line of the frozen requirements is changed on disk
 * (the assumption the open question asked about), exactly as someone would in an editor. The goal step
 * then starts from the file as it is, so its constraints quote the changed line.
 */
import { readFileSync } from "node:fs";
import { writeFileAtomically } from "../../../fs/atomic-write.js";
import type { Locale } from "../../../locale/locale.js";
import { DEMO_DOCUMENTS_TEXT } from "./documents-text.js";

export interface DemoEdit {
  /** 1-based line number in the file. */
  line: number;
  before: string;
  after: string;
}

/** Changes the one line; fails, naming the file, when the frozen requirements do not hold it. */
export function editDemoRequirements(path: string, locale: Locale): DemoEdit {
  const { before, after } = DEMO_DOCUMENTS_TEXT[locale].editedLine;
  const lines = readFileSync(path, "utf8").split("\n");
  const index = lines.findIndex((line) => line.trim() === before);
  if (index === -1) throw new Error(`the demo's requirements line "${before}" is not in ${path}`);
  lines[index] = after;
  writeFileAtomically(path, lines.join("\n"));
  return { line: index + 1, before, after };
}
