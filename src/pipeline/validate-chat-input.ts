/** Checks that no schema can express: unique tool names, and a named tool_choice that exists. */
import { gatewayError, invalidRequest } from '../core/gateway-error.js';
import type { ChatInput } from '../core/chat-request.js';
import type { RequestCaches } from '../core/request-caches.js';
import { isSharedToolList } from '../core/shared-tool-list.js';
import type { ToolDefinition } from '../core/tool-definition.js';

function uniqueToolNames(tools: readonly ToolDefinition[]): ReadonlySet<string> {
  const seen = new Set<string>();
  for (const [index, tool] of tools.entries()) {
    if (seen.has(tool.name)) {
      throw gatewayError('duplicate_tool_name', {
        message: `Duplicate tool name '${tool.name}': each tool needs a unique name.`,
        param: `tools[${index}].function.name`,
      });
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
    throw gatewayError('unknown_tool', {
      message: `tool_choice names '${choice.name}', which is not among the request's tools: ${offered}.`,
      param: 'tool_choice',
    });
  }
  if ((choice?.type === 'required' || choice?.type === 'tool') && seen.size === 0) {
    throw invalidRequest(`tool_choice '${choice.type === 'tool' ? choice.name : 'required'}' needs at least one tool.`, 'tool_choice');
  }
}
