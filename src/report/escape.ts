/**
 * Escaping for text and attribute values in the report's HTML and SVG. Every string that comes from a
 * run (task, step name, paths, verdicts, check details) goes through here: a task can hold `<script>`
 * as easily as any other words.
 */
const ENTITIES: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

export function escapeHtml(value: string | number): string {
  return String(value).replace(/[&<>"']/g, (char) => ENTITIES[char]!);
}
