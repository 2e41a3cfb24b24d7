/** A tool-call syntax a downstream agent reads from text (`agent_format`), and how its tool results come back. */
// How calls are written into `content`, how the agent's history is read back, and how the agent returns
// tool results. Pure: no I/O.
import type { ToolCallPart } from './message.js';
import type { ToolDefinition } from './tool-definition.js';
import type { ToolCallParser } from './tool-format.js';

/** A piece of a user message from the agent: plain text, or one tool result in the syntax's result wrapper. */
export type AgentResultSegment =
  | { type: 'text'; text: string }
  /** `raw` is the wrapper as the agent wrote it, kept for when no call is waiting for this result. */
  | { type: 'result'; output: string; raw: string; name?: string; isError?: boolean };

export interface AgentTextSyntax {
  /** The `agent_format` value, e.g. `qwen3` (`custom` for `tool_call_tags`). */
  readonly id: string;
  /** One call in this syntax; the syntax's parser reads it back. */
  renderCall(call: Pick<ToolCallPart, 'name' | 'arguments'>): string;
  /** A parser for assistant text in the agent's history; only names in `tools` become calls. */
  createParser(tools: ToolDefinition[]): ToolCallParser;
  /** Splits a user message's text into tool results (in this syntax's result wrapper) and the text around them. */
  splitResults(text: string): AgentResultSegment[];
}

/** The text syntaxes on offer: the named ones, and custom tags built per request. */
export interface AgentSyntaxRegistry {
  /** Named syntaxes by `agent_format` value, in documentation order. */
  readonly syntaxes: ReadonlyMap<string, AgentTextSyntax>;
  /** `<start>{"name", "arguments"}<end>` for `tool_call_tags`; throws an Error when the tags cannot work. */
  custom(start: string, end: string): AgentTextSyntax;
}
