/**
 * The `flower demo` scenario: a long-horizon task the offline model kit plays against the real Claude
 * Code binary. The fixture builds the workspace, the script text says what the agents say, the policy
 * decides each reply. The CLI's demo command runs it; tests may run it too.
 */
export { NOTE_COUNT, noteName, prepareDemoWorkspace } from "./fixture.js";
export { demoTask } from "./script-text.js";
export { DEMO_CONTEXT_WINDOW, DEMO_RUN, DEMO_STEP, demoHandoffPolicy, demoPolicy } from "./demo-policy.js";
export { DEMO_DOCUMENTS_TEXT } from "./documents-text.js";
export { editDemoRequirements } from "./edit.js";
export type { DemoScriptOptions } from "./demo-policy.js";
