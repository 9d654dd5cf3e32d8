/**
 * A run's (or a direct step's) name from the task's first words: readable in `flower runs`, unique
 * where `taken` says. Here, not in the CLI, because `flower "<task>"` and the fleet's `submit` name runs
 * alike.
 */
export function stepNameFor(task: string, taken: (name: string) => boolean): string {
  const words = task
    .normalize("NFC")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s-]+/gu, " ")
    .split(/\s+/u)
    .filter(Boolean)
    .slice(0, 5);
  let base = Array.from(words.join("-")).slice(0, 40).join("").replace(/-+$/u, "");
  if (base === "") base = "task";
  let name = base;
  for (let n = 2; taken(name); n++) name = `${base}-${n}`;
  return name;
}
