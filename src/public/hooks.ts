/**
 * `flower-agent/hooks`: for an integrator who calls the SDK's `query()` with flower's parts instead of
 * the `Runtime` — the options builder, the guards (SDK hooks), the workbench, the rules and tool lists a
 * coordinator is given, and the event bus the parts report to. The `Runtime` wires all of them itself
 * (src/index.ts is what a user builds with).
 */
export { buildOptions } from "../agents/build-options.js";
export type { BuildContext } from "../agents/build-options.js";
export { COORDINATOR_TOOLS, sessionTools } from "../agents/coordinator.js";
export { COORDINATOR_RULES, SUBAGENT_RULES } from "../agents/rules.js";
export { delegateGuard } from "../guards/delegate-guard.js";
export { readOnlyGuard, READ_ONLY_TOOLS } from "../guards/read-only-guard.js";
export { spillGuard } from "../guards/spill-guard.js";
export { indexGuard } from "../guards/index-guard.js";
export { claimGuard } from "../guards/claim-guard.js";
export { assessClaim } from "../goal/claims.js";
export { isEphemeral } from "../glance/is-ephemeral.js";
export { Workbench } from "../workbench/workbench.js";
export { EventBus } from "../runtime/events.js";
