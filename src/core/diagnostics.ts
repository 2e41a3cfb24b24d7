/**
 * Tool-call diagnostics reported beside a response (the `diagnostics` extension field).
 * Rendered to the wire as snake_case by each route (README: What the gateway adds to responses).
 */
import type { Warning } from './warning.js';

export type ToolCallErrorCode = 'invalid_tool_syntax' | 'unavailable_tool';

export type ToolCallError = {
  code: ToolCallErrorCode;
  message: string;
  availableTools: string[];
};

export type UnparsedToolCall = {
  /** The family whose envelope was opened, e.g. `hermes`. */
  format: string;
  text: string;
  reason: 'unclosed' | 'malformed';
};

export type Diagnostics = {
  toolCallError?: ToolCallError;
  unparsedToolCall?: UnparsedToolCall;
  warnings?: Warning[];
};
