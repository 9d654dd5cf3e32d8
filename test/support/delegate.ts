/** The coordinator's turn most scripted runs need: delegate once, then answer. */
import { text, toolUse, type ModelRequest, type Reply } from "../../src/testing/index.js";

export interface Delegation {
  subagent_type: string;
  description: string;
  prompt: string;
}

/** One Agent call (`call`) while no subagent has answered yet; once one has, `done` (a text or a reply). */
export function delegateOnce(request: ModelRequest, call: Delegation, done: string | Reply): Reply {
  if (request.countToolResults("Agent") === 0) return toolUse("Agent", { ...call });
  return typeof done === "string" ? text(done) : done;
}
