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

/** Why a reply asked for with `response_format` json_schema / json_object is not valid against it (content is left as written). */
export type ResponseFormatError = {
  /** `repaired_json`: a streamed reply held valid JSON only after fences, prose or near-JSON were mended (in `json`). */
  code: 'invalid_json' | 'schema_mismatch' | 'repaired_json';
  message: string;
  /** ajv's errors (instancePath, keyword, message, params) for `schema_mismatch`. */
  errors: { instancePath: string; keyword: string; message: string; params: Record<string, unknown> }[];
  /** The schema-valid JSON the streamed text held (code `repaired_json` only). */
  json?: string;
};

export type Diagnostics = {
  toolCallError?: ToolCallError;
  responseFormatError?: ResponseFormatError;
  unparsedToolCall?: UnparsedToolCall;
  warnings?: Warning[];
};
