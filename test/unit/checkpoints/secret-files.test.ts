/**
 * Which untracked files look like secrets (src/checkpoints/secret-files.ts): by name (credential files of the
 * usual tools, environment files but their templates), by content (a private key's header, a credential
 * flower hands the `claude` child), and which of them `flower.json`'s `carry` brings along all the same.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { WorkError } from "../../../src/errors.js";
import { SecretRedactor } from "../../../src/secret-redactor.js";
import { readFlowerJson } from "../../../src/checkpoints/flower-json.js";
import { carryRule, secretByContent, secretByName } from "../../../src/checkpoints/secret-files.js";
import { useTempDirs } from "../../support/temp-dir.js";

const temp = useTempDirs();

describe("a secret by its name", () => {
  it.each([
    ".env",
    ".env.local",
    ".env.production",
    "config/.env.staging",
    "deploy/prod.env",
    ".envrc",
    "secrets/id_rsa",
    "id_dsa",
    "id_ecdsa",
    "id_ed25519",
    "id_ed25519_sk",
    "keys/deploy_rsa",
    "tls/server.pem",
    "config/master.key",
    "cert.p12",
    "cert.pfx",
    "release.jks",
    "putty.ppk",
    "vault.kdbx",
    ".npmrc",
    ".pypirc",
    ".netrc",
    "_netrc",
    ".pgpass",
    ".git-credentials",
    ".htpasswd",
    ".aws/credentials",
    "home/.aws/credentials",
    ".docker/config.json",
    ".kube/config",
    "kubeconfig",
    "staging.kubeconfig",
    "gcloud/application_default_credentials.json",
    "credentials.json",
    "infra/terraform.tfstate",
    "infra/terraform.tfstate.backup",
    "infra/terraform.tfvars",
    ".bash_history",
    ".psql_history",
    ".ENV",
    "ID_RSA",
  ])("%s", (path) => {
    expect(secretByName(path)).toBe(true);
  });

  it.each([
    ".env.example",
    ".env.sample",
    "config/.env.template",
    ".env.dist",
    "example.env",
    "sample.env",
    "id_rsa.pub",
    "src/env.ts",
    "src/environment.ts",
    "README.md",
    "src/keys.ts",
    "src/credentials.ts",
    ".aws/config",
    "docs/keyboard.md",
    "package.json",
    ".gitignore",
  ])("not %s", (path) => {
    expect(secretByName(path)).toBe(false);
  });
});

describe("a secret by its content", () => {
  const pem = (kind: string) =>
    Buffer.from(`-----BEGIN ${kind}-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END ${kind}-----\n`);

  it.each([
    "RSA PRIVATE KEY",
    "PRIVATE KEY",
    "EC PRIVATE KEY",
    "DSA PRIVATE KEY",
    "OPENSSH PRIVATE KEY",
    "ENCRYPTED PRIVATE KEY",
    "PGP PRIVATE KEY BLOCK",
  ])("a %s", (kind) => {
    expect(secretByContent(pem(kind), null)).toBe("private-key");
  });

  it("a PuTTY key, and a key inside a JSON file (a service account's) or a binary file", () => {
    expect(secretByContent(Buffer.from("PuTTY-User-Key-File-3: ssh-ed25519\n"), null)).toBe("private-key");
    const account = JSON.stringify({ type: "service_account", private_key: pem("PRIVATE KEY").toString() });
    expect(secretByContent(Buffer.from(account), null)).toBe("private-key");
    const binary = Buffer.concat([Buffer.from([0, 255, 1, 2]), pem("RSA PRIVATE KEY"), Buffer.from([0])]);
    expect(secretByContent(binary, null)).toBe("private-key");
  });

  it("not a public key, a certificate, or code that talks about keys", () => {
    expect(secretByContent(pem("PUBLIC KEY"), null)).toBeNull();
    expect(secretByContent(pem("CERTIFICATE"), null)).toBeNull();
    expect(secretByContent(Buffer.from('const header = "BEGIN PRIVATE KEY";\n'), null)).toBeNull();
  });

  it("a credential flower hands the claude child, as the redactor knows it", () => {
    const redactor = new SecretRedactor([{ name: "ANTHROPIC_API_KEY", value: "sk-ant-PLANTED-0123456789" }]);
    expect(secretByContent(Buffer.from('{ "key": "sk-ant-PLANTED-0123456789" }'), redactor)).toBe(
      "credential",
    );
    expect(secretByContent(Buffer.from('{ "key": "sk-ant-something-else" }'), redactor)).toBeNull();
  });
});

describe("flower.json's carry", () => {
  it("a name matches in any folder, a path from the top, a folder takes its files, globs stay in a folder", () => {
    const carry = carryRule([".env", "/top.pem", "secrets/*.pem", "keys/", "**/deploy_rsa", "c?.key"]);
    expect(carry(".env")).toBe(true);
    expect(carry("app/.env")).toBe(true);
    expect(carry(".env.local")).toBe(false);
    expect(carry("top.pem")).toBe(true);
    expect(carry("app/top.pem")).toBe(false);
    expect(carry("secrets/a.pem")).toBe(true);
    expect(carry("secrets/deep/a.pem")).toBe(false);
    expect(carry("keys/id_rsa")).toBe(true);
    expect(carry("keys/deep/id_rsa")).toBe(true);
    expect(carry("deploy_rsa")).toBe(true);
    expect(carry("a/b/deploy_rsa")).toBe(true);
    expect(carry("c1.key")).toBe(true);
    expect(carry("c12.key")).toBe(false);
    expect(carryRule(undefined)("x")).toBe(false);
    expect(carryRule([])(".env")).toBe(false);
  });

  it.each<[unknown, RegExp]>([
    [".env", /"carry" must be a list .* got "\.env"/],
    [{ files: [".env"] }, /"carry" must be a list .* got \{"files":\[".env"\]\}/],
    [[42], /"carry" entry 42 is not a file name or glob/],
    [[""], /"carry" entry "" is not a file name or glob/],
    [[" .env"], /"carry" entry " .env" has spaces around it/],
    [["!.env"], /"carry" entry "!.env" is a negation/],
    [["../up/.env"], /"carry" entry "..\/up\/.env" leaves the repository/],
    [["a\\b"], /"carry" entry "a\\\\b" has a backslash/],
  ])("refuses %j, naming it", (value, message) => {
    expect(() => carryRule(value)).toThrow(message);
  });

  it("is read from flower.json beside setup; a bad value is a WorkError naming the file and the value", () => {
    const dir = temp.make("flower-json-");
    expect(readFlowerJson(dir).setup).toBeNull();
    writeFileSync(join(dir, "flower.json"), JSON.stringify({ setup: "npm ci", carry: [".env"] }));
    const read = readFlowerJson(dir);
    expect(read.setup).toBe("npm ci");
    expect(read.carry("web/.env")).toBe(true);
    writeFileSync(join(dir, "flower.json"), JSON.stringify({ carry: ["!x"] }));
    expect(() => readFlowerJson(dir)).toThrow(WorkError);
    expect(() => readFlowerJson(dir)).toThrow(
      `${join(dir, "flower.json")}: "carry" entry "!x" is a negation: carry names only files to bring, nothing to leave out`,
    );
    writeFileSync(join(dir, "flower.json"), "[1]");
    expect(() => readFlowerJson(dir)).toThrow(/flower\.json must hold an object .* got \[1\]/);
  });
});
