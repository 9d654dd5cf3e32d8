// @ts-check
import js from "@eslint/js";
import tseslint from "typescript-eslint";

/*
 * The direction of imports inside src/, enforced: an upward import fails the lint.
 *
 *   cli → fleet, serve (the live page) → workflow → runtime → storage → middle (agents, documents,
 *   handoff, guards, session-layers, records, workbench, goal, report, telemetry, events, checkpoints,
 *   notify) → leaves
 *   storage (the one owner of the storage stack: its SQLite and PostgreSQL backends, the only code that
 *   opens a database or deletes from one; it builds the stack from the store spec, names its files,
 *   forgets from it) sits above session-layers (the layers over any session store) and records (the
 *   record types and the lease rules): nothing below storage can open a database behind its back.
 *   leaves: fs, glance, locale, process, errors.ts, defaults.ts, handoff-sections.ts, secret-redactor.ts
 *   (they import only each other; glance may use them)
 *   fleet (the queue of runs on a shared store and its workers) drives runs through workflow and runtime;
 *   only the CLI and the library's entry point import it.
 *   testing (the offline kit, `flower-agent/testing`) never imports runtime or cli.
 *   index.ts and public/ (the package's root and its subpaths: stores, documents, hooks) re-export; nothing
 *   in src/ imports them.
 *
 * Folders of one layer may import each other; scripts/check-layers.mjs (part of `npm run lint`) makes
 * sure no folder cycle arises that way, no file cycle either (type-only imports count), and that a
 * command (cli/commands/) is imported by cli/main.ts alone.
 */
const MIDDLE = [
  "agents",
  "documents",
  "handoff",
  "guards",
  "session-layers",
  "records",
  "workbench",
  "goal",
  "report",
  "telemetry",
  "events",
  "checkpoints",
  "notify",
];
const LEAF_FOLDERS = ["fs", "glance", "locale", "process"];
const LEAF_FILES = ["errors", "defaults", "handoff-sections", "secret-redactor"];
const ABOVE_LEAVES = [
  "cli",
  "fleet",
  "serve",
  "workflow",
  "runtime",
  "storage",
  "testing",
  "public",
  ...MIDDLE,
];

/** A relative import that climbs out into `target` (a folder of src/ or one of its top files). */
function into(target) {
  return LEAF_FILES.includes(target) ? `^(\\.\\./)+${target}\\.js$` : `^(\\.\\./)+${target}/`;
}

/** Forbids files in `folders` (of src/) to import from `targets`. */
function layer(folders, targets, why) {
  return {
    files: folders.map((folder) =>
      [...LEAF_FILES, "index"].includes(folder) ? `src/${folder}.ts` : `src/${folder}/**/*.ts`,
    ),
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: targets.map((target) => ({ regex: into(target), message: `(${target}) ${why}` })) },
      ],
    },
  };
}

const layers = [
  layer(
    ["index", "public"],
    ["cli", "testing"],
    "the library's entry points export neither the CLI nor the kit.",
  ),
  layer(["fleet"], ["cli", "testing"], "the fleet sits below the CLI and never needs the offline kit."),
  layer(
    ["serve"],
    ["cli", "fleet", "testing"],
    "the live page sits below the CLI: its rows and actions (the fleet's) are passed in (cli/page/serve-source.ts).",
  ),
  layer(
    ["workflow"],
    ["cli", "fleet", "serve", "testing"],
    "workflows sit below the fleet and the CLI and never need the offline kit.",
  ),
  layer(
    ["runtime"],
    ["cli", "fleet", "serve", "workflow", "testing"],
    "the runtime sits below workflows and the CLI and never needs the offline kit.",
  ),
  layer(
    ["storage"],
    ["cli", "fleet", "serve", "workflow", "runtime", "testing"],
    "storage sits below the runtime; the runtime and the CLI call it.",
  ),
  layer(
    MIDDLE,
    ["cli", "fleet", "serve", "workflow", "runtime", "storage", "testing"],
    "the middle layer sits below the runtime and storage; pass values down.",
  ),
  layer(
    ["testing"],
    ["cli", "fleet", "serve", "workflow", "runtime", "storage"],
    "the offline kit stays independent of the runtime and the CLI.",
  ),
  layer(
    ["glance"],
    ABOVE_LEAVES,
    "glance is a leaf (tokenizer, command table, git rules): only fs, locale, errors and defaults.",
  ),
  layer(
    [...LEAF_FOLDERS.filter((folder) => folder !== "glance"), ...LEAF_FILES],
    [...ABOVE_LEAVES, "glance"],
    "a leaf imports only other leaves (fs, locale, process, errors, defaults, handoff-sections).",
  ),
];

export default tseslint.config(
  {
    ignores: ["dist/", "node_modules/", "runs/", "bench/dist/", "coverage/", "test/**/*.mjs"],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // An async runtime that forgets a promise loses errors and leaves children running.
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/restrict-template-expressions": "off",
      // The SDK's SessionStore and hook interfaces are async; our implementations over a synchronous
      // SQLite driver keep `async` so a throw becomes a rejection, as the caller expects.
      "@typescript-eslint/require-await": "off",
    },
  },
  {
    files: ["test/**/*.ts"],
    rules: {
      "@typescript-eslint/no-non-null-assertion": "off",
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-member-access": "off",
      // Tests read manifest.json and request bodies as plain JSON.
      "@typescript-eslint/no-unsafe-call": "off",
      "@typescript-eslint/no-unsafe-argument": "off",
    },
  },
  ...layers,
  { files: ["eslint.config.js", "scripts/**/*.mjs"], ...tseslint.configs.disableTypeChecked },
  {
    // Node scripts run by hand or by npm (check-layers, report-screenshot).
    files: ["scripts/**/*.mjs"],
    languageOptions: { globals: { process: "readonly", console: "readonly" } },
  },
);
