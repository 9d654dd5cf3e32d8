/**
 * Declaring a document (docs/workflows.md): `defineDocument` checks a DocumentSpec (document.ts) once, at
 * the boundary, so every error names the bad field and value; `requiredKeys` lists what must be filled in.
 */
import { ConfigurationError } from "../errors.js";
import { LOCALES } from "../locale/locale.js";
import type { DocumentSection, DocumentSpec } from "./document.js";
import { NOTES_KEY } from "./notes.js";

/** Validates a spec and returns it: every error names the bad field and value. */
export function defineDocument(spec: DocumentSpec): DocumentSpec {
  if (!spec || typeof spec !== "object")
    throw new ConfigurationError("document", spec, "a DocumentSpec object");
  if (typeof spec.kind !== "string" || !/^[\p{L}\p{N}_-]+$/u.test(spec.kind))
    throw new ConfigurationError("document kind", spec.kind, "a non-empty name of letters, digits, - or _");
  checkLocalText(`document ${spec.kind} title`, spec.title);
  checkLocalText(`document ${spec.kind} file`, spec.file);
  checkLocalText(`document ${spec.kind} instructions`, spec.instructions, true);
  for (const locale of LOCALES) {
    if (/[\\/]/.test(spec.file[locale]))
      throw new ConfigurationError(
        `document ${spec.kind} file.${locale}`,
        spec.file[locale],
        "a file name stem without / or \\",
      );
  }
  if (!Array.isArray(spec.sections) || spec.sections.length === 0)
    throw new ConfigurationError(`document ${spec.kind} sections`, spec.sections, "at least one section");
  const keys = new Set<string>();
  for (const section of spec.sections as readonly DocumentSection[]) {
    const key = (section as { key?: unknown })?.key;
    if (typeof key !== "string" || !/^[A-Za-z][A-Za-z0-9_-]*$/.test(key) || key === NOTES_KEY)
      throw new ConfigurationError(
        `document ${spec.kind} section key`,
        key,
        `a name of ASCII letters, digits, - or _ other than "${NOTES_KEY}"`,
      );
    if (keys.has(key))
      throw new ConfigurationError(`document ${spec.kind} section key`, key, "a key used once");
    keys.add(key);
    checkLocalText(`document ${spec.kind} section ${key} heading`, section.heading);
    if (section.hint !== undefined)
      checkLocalText(`document ${spec.kind} section ${key} hint`, section.hint, true);
    if (
      section.aliases !== undefined &&
      (!Array.isArray(section.aliases) ||
        (section.aliases as unknown[]).some((alias) => typeof alias !== "string" || alias.trim() === ""))
    )
      throw new ConfigurationError(
        `document ${spec.kind} section ${key} aliases`,
        section.aliases,
        "an array of non-empty strings",
      );
  }
  if (spec.check !== undefined && typeof spec.check !== "function")
    throw new ConfigurationError(
      `document ${spec.kind} check`,
      spec.check,
      "a function (document) => reason | null",
    );
  return spec;
}

/** The required sections' keys, in document order. */
export function requiredKeys(spec: DocumentSpec): string[] {
  return spec.sections.filter((section) => section.required === true).map((section) => section.key);
}

function checkLocalText(name: string, value: unknown, allowEmpty = false): void {
  const text = value as Record<string, unknown> | null | undefined;
  for (const locale of LOCALES) {
    const entry = text?.[locale];
    if (typeof entry !== "string" || (!allowEmpty && entry.trim() === ""))
      throw new ConfigurationError(`${name}.${locale}`, entry, "a non-empty string");
  }
}
