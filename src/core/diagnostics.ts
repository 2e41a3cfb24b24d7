/**
 * Tool-call diagnostics reported beside a response (the `diagnostics` extension field).
 * Rendered to the wire as snake_case by each route; see DESIGN.md §5.
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

export function isEmptyDiagnostics(diagnostics: Diagnostics): boolean {
  return !diagnostics.toolCallError && !diagnostics.unparsedToolCall && !diagnostics.warnings?.length;
}
