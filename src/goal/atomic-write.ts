/**
 * Temp file in the same directory + rename: a reader (a coordinator opening a check log, a person
 * tailing it) sees the previous file or the whole new one, never half of one. Kept local so the goal
 * folder imports nothing from the runtime the lead is refactoring; `writeAtomically` in the manifest
 * module does the same for strings.
 */
import { randomBytes } from "node:crypto";
import { renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

export function writeFileAtomically(
  filePath: string,
  content: string | Uint8Array | readonly Uint8Array[],
): void {
  const temporary = path.join(
    path.dirname(filePath),
    `.${path.basename(filePath)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`,
  );
  try {
    if (typeof content === "string" || content instanceof Uint8Array) writeFileSync(temporary, content);
    else writeFileSync(temporary, Buffer.concat(content));
    renameSync(temporary, filePath);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}
