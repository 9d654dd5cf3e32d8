/**
 * The shape of the SDK's `query()`, in a file of its own: the runtime's options take one (a scripted
 * stand-in in the step loop's unit tests), and the session driver calls it. Declared in neither, so the
 * options do not import the driver that, through the session's options, imports them back.
 */
import type { Options, Query, SDKUserMessage } from "@anthropic-ai/claude-agent-sdk";

/** The SDK's `query()`, or a scripted stand-in in the step loop's unit tests. */
export type QueryFunction = (input: { prompt: AsyncIterable<SDKUserMessage>; options?: Options }) => Query;
