/** `allowed_tools` (a tool_choice of Responses and of Chat Completions): the tools the model may use this turn. */
import { invalidRequest } from '../../src/core/gateway-error.js';
import type { ToolDefinition } from '../../src/core/tool-definition.js';

/**
 * The tools `allowed_tools` lets the model use. A name it lists that `tools` does not define is the client's
 * mistake, refused as OpenAI refuses it: offering nothing in its place would leave the model unable to
 * call the tool the client meant, without a word.
 */
export function allowedOf(tools: readonly ToolDefinition[], allowed: ReadonlySet<string>): ToolDefinition[] {
  const defined = new Set(tools.map((tool) => tool.name));
  for (const name of allowed)
    if (!defined.has(name))
      throw invalidRequest(`tool_choice.tools names '${name}', which is not among the request's tools.`, 'tool_choice.tools');
  return tools.filter((tool) => allowed.has(tool.name));
}
