/**
 * The docs' complete examples that test/package/installed-package.test.ts runs in the installed package,
 * as a user runs them there: one real-binary run each is enough, so test/readme/ counts them as run
 * and does not run them again. Each is the one `ts` block of its file that contains its marker.
 */
export const INSTALLED_EXAMPLES = {
  /** The README's "Use it from code". */
  library: { file: "README.md", marker: 'rt.run("survey"' },
  /** The testing kit's example. */
  testingKit: { file: "docs/testing-kit.md", marker: "startFakeModel" },
} as const;
