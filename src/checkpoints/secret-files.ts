/**
 * Which files look like secrets, and which of them the person asked to carry anyway. Pure: the shadow
 * repository (secret-filter.ts) reads the files and asks the person's index; this only judges.
 *
 * Why: a person's checkout holds files they never commit and never meant to send anywhere — an `.env`
 * with an API key that `.gitignore` happens not to name, an `id_rsa` copied in for a deploy. Before this
 * rule, such a file went into the run's checkpoints, from there into a shared store's bundles, onto every
 * worker, and into the branch `flower apply` offers to merge (issue 40). An untracked file that looks like
 * a secret is now left out of the checkpoints, named, unless `flower.json`'s `carry` names it. A tracked
 * file is the person's decision and is never judged.
 *
 * By name: curated from gitrob's `filesignatures.json` (github.com/michenriksen/gitrob, the list secret
 * scanners such as shhgit grew from), keeping the entries that ARE credentials (key files, key stores,
 * the credential files of tools) and dropping those that only may contain one (`settings.py`, `*.log`,
 * `*.sqlite`, any path with "password" in it): leaving out a file the run needs to build would break the
 * run, and the content check below catches a key inside such a file. Added where gitrob predates a tool:
 * kubeconfig, `.env.*`, `.git-credentials`, `.docker/config.json`, gcloud's
 * `application_default_credentials.json`, Terraform state.
 *
 * Templates are carried: `.env.example`, `.env.sample`, `.env.template`, … are meant to be committed (the
 * variables a project needs, without values), and a run asked to add a variable to one must be able to.
 * Their content is still checked.
 *
 * By content: a private key's header (PEM `-----BEGIN … PRIVATE KEY-----`, OpenSSH, PGP, PuTTY), or the
 * value of a credential flower hands the `claude` child (the ones the secret redactor knows and redacts
 * from transcripts: a file holding the same key is the same leak). Only the first CONTENT_BYTES are read.
 */
import { isAbsolute } from "node:path";
import type { SecretRedactor } from "../secret-redactor.js";

/** Why a file looks like a secret: its name, a private key in it, or a credential flower knows. */
export type SecretSign = "name" | "private-key" | "credential";

/** How much of a file the content check reads: a key's header sits at its top, or near a config's. */
export const CONTENT_BYTES = 256 * 1024;

/** A file name (the last part of a path) that is a credential by itself. Case does not matter. */
const SECRET_NAMES: readonly RegExp[] = [
  // Environment files: `.env`, `.env.local`, `.env.production`, `prod.env`; direnv's `.envrc`.
  /^\.env$/,
  /^\.env\..+$/,
  /^.+\.env$/,
  /^\.envrc$/,
  // Private keys and key stores.
  /\.(pem|key|p12|pfx|pkcs12|jks|keystore|ppk|kdbx?|agilekeychain|keychain|psafe3|ovpn|bek|tpm)$/,
  /^id_(rsa|dsa|ecdsa|ed25519)(_sk)?$/,
  /_(rsa|dsa|ecdsa|ed25519)$/,
  // The credential files of tools.
  /^[._]?netrc$/,
  /^\.?pgpass$/,
  /^\.?npmrc$/,
  /^\.?pypirc$/,
  /^\.git-credentials$/,
  /^\.?dockercfg$/,
  /^\.?htpasswd$/,
  /^\.?s3cfg$/,
  /^\.boto$/,
  /^\.my\.cnf$/,
  /^\.vault-token$/,
  /^credentials\.(json|db|xml|tfrc\.json)$/,
  /^application_default_credentials\.json$/,
  /^access_tokens\.db$/,
  /^(accesstokens|msal_token_cache)\.(json|bin)$/,
  /^(.+\.)?kubeconfig$/,
  /^terraform\.tfvars$/,
  /\.tfstate(\.backup)?$/,
  // Shell and database client histories: passwords typed on a command line.
  /^\.(bash_|zsh_|sh_|z)?history$/,
  /^\.(psql|mysql|irb|python|node_repl)_history$/,
];

/** Paths (their last parts) that are credentials where a file name alone is not: `.aws/credentials`. */
const SECRET_PATHS: readonly RegExp[] = [
  /(^|\/)\.?(aws|gem)\/credentials$/,
  /(^|\/)\.docker\/config\.json$/,
  /(^|\/)\.kube\/config$/,
  /(^|\/)gh\/hosts\.yml$/,
];

/** A template of an environment file, meant to be committed without values: `.env.example`, `sample.env`. */
const TEMPLATE = /(^|\.)(example|sample|template|tmpl|tpl|dist|defaults|schema)(\.|$)/;

const ENVIRONMENT_FILE = /(^\.env(\.|$))|(\.env$)/;

/** A private key's first line: PEM (`RSA`, `EC`, `DSA`, `ENCRYPTED`, `OPENSSH`, none), PGP, PuTTY. */
const PRIVATE_KEY = /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|PuTTY-User-Key-File-\d+:/;

/** Whether a path (`/`-separated, relative to the repository's top) is a secret by its name. */
export function secretByName(path: string): boolean {
  const lower = path.toLowerCase();
  const name = lower.slice(lower.lastIndexOf("/") + 1);
  if (ENVIRONMENT_FILE.test(name) && TEMPLATE.test(name)) return false;
  return SECRET_NAMES.some((rule) => rule.test(name)) || SECRET_PATHS.some((rule) => rule.test(lower));
}

/**
 * Whether a file's first bytes hold a private key or a credential the redactor knows; null when they
 * hold neither.
 */
export function secretByContent(
  head: Buffer,
  redactor: Pick<SecretRedactor, "holds"> | null,
): SecretSign | null {
  // latin1 keeps every byte as one character: the ASCII markers are found in any encoding, binary too.
  const text = head.toString("latin1");
  if (PRIVATE_KEY.test(text)) return "private-key";
  if (redactor !== null && redactor.holds(text)) return "credential";
  return null;
}

/** The files `flower.json`'s `carry` names, as one test on a path (relative to the repository's top). */
export type CarryRule = (path: string) => boolean;

export const CARRY_NOTHING: CarryRule = () => false;

/**
 * `carry` as a rule. Each entry is a file name or a glob, as `.gitignore` reads one: without a `/` it
 * matches that name in any folder (`.env`), with one it is a path from the repository's top
 * (`secrets/id_rsa`, `/config/*.pem`); a trailing `/` takes a folder's files; `*` and `?` stay within a
 * folder, `**` crosses folders. Throws a message naming the entry that is not one.
 */
export function carryRule(value: unknown): CarryRule {
  if (value === undefined) return CARRY_NOTHING;
  if (!Array.isArray(value))
    throw new Error(
      `"carry" must be a list of file names or globs ([".env", "secrets/*.pem"]), got ${JSON.stringify(value)}`,
    );
  const tests = value.map((entry: unknown) => {
    const why = badEntry(entry);
    if (why !== null) throw new Error(`"carry" entry ${JSON.stringify(entry)} ${why}`);
    return globTest(entry as string);
  });
  return tests.length === 0 ? CARRY_NOTHING : (path) => tests.some((test) => test(path));
}

function badEntry(entry: unknown): string | null {
  if (typeof entry !== "string" || entry.trim() === "")
    return "is not a file name or glob (a non-empty string)";
  if (entry !== entry.trim()) return "has spaces around it";
  if (entry.startsWith("!")) return "is a negation: carry names only files to bring, nothing to leave out";
  if (isAbsolute(entry) && !entry.startsWith("/")) return "is an absolute path";
  if (entry.includes("\\")) return "has a backslash: write paths with /";
  if (entry.split("/").some((part) => part === ".."))
    return "leaves the repository (..): paths are from its top";
  return null;
}

/** One carry entry as a test. */
function globTest(entry: string): (path: string) => boolean {
  let pattern = entry.endsWith("/") ? `${entry}**` : entry;
  // Without a slash (but a trailing one) a name matches in any folder, as in .gitignore.
  const anywhere = !pattern.slice(0, -1).includes("/") && !entry.endsWith("/");
  pattern = pattern.replace(/^\/+/, "");
  let source = "";
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i]!;
    if (char === "*" && pattern[i + 1] === "*") {
      const slash = pattern[i + 2] === "/";
      source += slash ? "(?:.*/)?" : ".*";
      i += slash ? 2 : 1;
    } else if (char === "*") source += "[^/]*";
    else if (char === "?") source += "[^/]";
    else source += char.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  const regex = new RegExp(`^${anywhere ? "(?:.*/)?" : ""}${source}$`);
  return (path) => regex.test(path);
}
