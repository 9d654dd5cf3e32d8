/**
 * For the tests that plant credentials and look for them in everything flower wrote: the files and
 * folders under a directory, and an assertion that a text holds no secret part of any credential.
 */
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";

export function* filesUnder(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* filesUnder(path);
    else yield path;
  }
}

export function* dirsUnder(dir: string): Generator<string> {
  yield dir;
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* dirsUnder(path);
  }
}

/** The secret part of a credential: everything after the 4 characters -v may show. */
function secretParts(credential: string): string[] {
  return [credential, credential.slice(4), credential.slice(4, 12), credential.slice(-8)];
}

/** An assertion that `content` (named `where` in the failure) holds no secret part of `credentials`. */
export function noSecretOf(credentials: string[]): (where: string, content: Buffer | string) => void {
  return (where, content) => {
    const bytes = typeof content === "string" ? Buffer.from(content) : content;
    for (const credential of credentials) {
      for (const part of secretParts(credential))
        expect(bytes.includes(part), `${where} contains ${JSON.stringify(part)}`).toBe(false);
    }
  };
}
