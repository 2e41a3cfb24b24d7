/** Reads `tool_call_tags`: `"START,END"` taken as written, or one bare name `x` meaning `<x>` and `</x>`. */
import { gatewayError } from '../../core/gateway-error.js';

export type ToolCallTags = { start: string; end: string };

const bareName = /^[A-Za-z_][\w.:-]*$/;

export function parseToolCallTags(value: string): ToolCallTags {
  const parts = value.split(',').map((part) => part.trim());
  if (parts.length === 2 && parts[0] && parts[1]) return { start: parts[0], end: parts[1] };
  if (parts.length === 1 && parts[0] && bareName.test(parts[0])) return { start: `<${parts[0]}>`, end: `</${parts[0]}>` };
  throw gatewayError('invalid_tool_call_tags', {
    message: `tool_call_tags must be "START,END" (two non-empty tags, one comma) or a single name such as "tool_call" (meaning <tool_call> and </tool_call>); got ${JSON.stringify(value)}.`,
    param: 'tool_call_tags',
  });
}
