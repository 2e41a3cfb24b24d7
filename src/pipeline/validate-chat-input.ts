/** Checks that no schema can express: unique tool names, and a named tool_choice that exists. */
import { invalidRequest } from '../core/gateway-error.js';
import type { ChatInput } from '../core/chat-request.js';
import type { RequestCaches } from '../core/request-caches.js';
import { isSharedToolList } from '../core/shared-tool-list.js';
import type { ToolDefinition } from '../core/tool-definition.js';

function uniqueToolNames(tools: readonly ToolDefinition[]): ReadonlySet<string> {
  const seen = new Set<string>();
  for (const [index, tool] of tools.entries()) {
    if (seen.has(tool.name)) {
      throw invalidRequest(`Duplicate tool name '${tool.name}': each tool needs a unique name.`, `tools[${index}].function.name`, 'duplicate_tool_name');
    }
    seen.add(tool.name);
  }
  return seen;
}

/** A shared list's names are checked once (`caches.toolNames`). */
export function validateChatInput(input: ChatInput, caches: Pick<RequestCaches, 'toolNames'>): void {
  const tools = input.tools ?? [];
  const seen = isSharedToolList(tools) ? caches.toolNames.get(tools, () => uniqueToolNames(tools)) : uniqueToolNames(tools);
  const choice = input.toolChoice;
  if (choice?.type === 'tool' && !seen.has(choice.name)) {
    const offered = [...seen].join(', ') || '(no tools)';
    throw invalidRequest(`tool_choice names '${choice.name}', which is not among the request's tools: ${offered}.`, 'tool_choice', 'unknown_tool');
  }
  if ((choice?.type === 'required' || choice?.type === 'tool') && seen.size === 0) {
    throw invalidRequest(`tool_choice '${choice.type === 'tool' ? choice.name : 'required'}' needs at least one tool.`, 'tool_choice');
  }
}
