/**
 * `flower-agent/testing`: run your agent workflows offline, with no key and no cost, against the
 * real `claude` binary and a scripted fake model.
 */
export { startFakeModel } from "./fake-model.js";
export type { FakeModel, FakeModelOptions, Policy, Exchange } from "./fake-model.js";
export { ModelRequest, resultText } from "./model-request.js";
export type {
  RequestKind,
  ToolCall,
  ToolResult,
  WireBlock,
  WireMessage,
  WireRequestBody,
} from "./model-request.js";
export { text, toolUse, toolUses, fault, validateReply } from "./replies.js";
export type {
  Reply,
  ContentReply,
  FaultReply,
  FaultKind,
  ReplyBlock,
  TextBlock,
  ToolUseBlock,
} from "./replies.js";
export { script, on } from "./script.js";
export type { Answer, ScriptEntry, ScriptOptions, ScriptStep, ScriptedPolicy, StepMatch } from "./script.js";
export { CHARS_PER_TOKEN, measurePrompt, tokensFor } from "./usage.js";
export type { Usage, PromptMeasure } from "./usage.js";
export { validateConversation } from "./validate.js";
export type { ValidationMode, ValidationOptions } from "./validate.js";
export { startPostgresServer, INSTALL_HINT } from "./postgres-server.js";
// The error the kit throws when a policy or an option is wrong (a test checks `instanceof` against it).
export { FakeModelError } from "../errors.js";
export type { PostgresServer, PostgresServerOptions } from "./postgres-server.js";
