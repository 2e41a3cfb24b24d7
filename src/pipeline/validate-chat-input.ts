/** Checks that no schema can express: unique tool names, and a named tool_choice that exists. */
import { invalidRequest } from '../core/gateway-error.js';
import type { ChatInput } from '../core/chat-request.js';

export function validateChatInput(input: ChatInput): void {
  const seen = new Set<string>();
  for (const [index, tool] of (input.tools ?? []).entries()) {
    if (seen.has(tool.name)) {
      throw invalidRequest(`Duplicate tool name '${tool.name}': each tool needs a unique name.`, `tools[${index}].function.name`, 'duplicate_tool_name');
    }
    seen.add(tool.name);
  }
  const choice = input.toolChoice;
  if (choice?.type === 'tool' && !seen.has(choice.name)) {
    const offered = [...seen].join(', ') || '(no tools)';
    throw invalidRequest(`tool_choice names '${choice.name}', which is not among the request's tools: ${offered}.`, 'tool_choice', 'unknown_tool');
  }
  if ((choice?.type === 'required' || choice?.type === 'tool') && seen.size === 0) {
    throw invalidRequest(`tool_choice '${choice.type === 'tool' ? choice.name : 'required'}' needs at least one tool.`, 'tool_choice');
  }
}
