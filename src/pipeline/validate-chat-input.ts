/** Checks that no schema can express: unique tool names, and a named tool_choice that exists. */
import { gatewayError, invalidRequest } from '../core/gateway-error.js';
import type { ChatInput } from '../core/chat-request.js';
import { isDeeplyFrozen } from '../core/immutable-values.js';
import type { ToolDefinition } from '../core/tool-definition.js';

/** A known list's names (deeply frozen, shared between requests: see immutable-values.ts), checked once. */
const knownListNames = new WeakMap<readonly ToolDefinition[], ReadonlySet<string>>();

function uniqueToolNames(tools: readonly ToolDefinition[]): ReadonlySet<string> {
  const known = isDeeplyFrozen(tools);
  const remembered = known ? knownListNames.get(tools) : undefined;
  if (remembered) return remembered;
  const seen = new Set<string>();
  for (const [index, tool] of tools.entries()) {
    if (seen.has(tool.name)) {
      throw gatewayError('duplicate_tool_name', { message: `Duplicate tool name '${tool.name}': each tool needs a unique name.`, param: `tools[${index}].function.name` });
    }
    seen.add(tool.name);
  }
  if (known) knownListNames.set(tools, seen);
  return seen;
}

export function validateChatInput(input: ChatInput): void {
  const seen = uniqueToolNames(input.tools ?? []);
  const choice = input.toolChoice;
  if (choice?.type === 'tool' && !seen.has(choice.name)) {
    const offered = [...seen].join(', ') || '(no tools)';
    throw gatewayError('unknown_tool', { message: `tool_choice names '${choice.name}', which is not among the request's tools: ${offered}.`, param: 'tool_choice' });
  }
  if ((choice?.type === 'required' || choice?.type === 'tool') && seen.size === 0) {
    throw invalidRequest(`tool_choice '${choice.type === 'tool' ? choice.name : 'required'}' needs at least one tool.`, 'tool_choice');
  }
}
