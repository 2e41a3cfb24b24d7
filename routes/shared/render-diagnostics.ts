/** Neutral diagnostics → the `diagnostics` extension object on the wire (snake_case; README: What the gateway adds to responses). */
import type { Diagnostics } from '../../src/core/diagnostics.js';

export type WireDiagnostics = {
  tool_call_error?: { code: string; message: string; available_tools: string[] };
  unparsed_tool_call?: { format: string; text: string; reason: string };
  response_format_error?: {
    code: string;
    message: string;
    errors: { instance_path: string; keyword: string; message: string; params: Record<string, unknown> }[];
    json?: string;
  };
  warnings?: { code: string; message: string }[];
};

export function renderDiagnostics(diagnostics: Diagnostics | undefined): WireDiagnostics | undefined {
  if (!diagnostics) return undefined;
  const wire: WireDiagnostics = {};
  if (diagnostics.toolCallError) {
    const { code, message, availableTools } = diagnostics.toolCallError;
    wire.tool_call_error = { code, message, available_tools: availableTools };
  }
  if (diagnostics.unparsedToolCall) wire.unparsed_tool_call = { ...diagnostics.unparsedToolCall };
  if (diagnostics.responseFormatError) {
    const { code, message, errors, json } = diagnostics.responseFormatError;
    wire.response_format_error = {
      code,
      message,
      errors: errors.map((error) => ({
        instance_path: error.instancePath,
        keyword: error.keyword,
        message: error.message,
        params: error.params,
      })),
    };
    if (json !== undefined) wire.response_format_error.json = json;
  }
  if (diagnostics.warnings?.length) wire.warnings = diagnostics.warnings.map((warning) => ({ ...warning }));
  return Object.keys(wire).length ? wire : undefined;
}
