/** OpenAI tools and tool_choice (wrapped or flat shapes, with optional prompt metadata) → neutral. */
import { shareToolList } from '../../src/core/shared-tool-list.js';
import type { ToolChoice, ToolDefinition, ToolExample } from '../../src/core/tool-definition.js';
import { memoiseKnownList } from '../shared/memoise-known-list.js';

import type { WireFunction, WireTool, WireToolChoice } from './chat-completion-request-schema.js';

function examplesOf(value: unknown): ToolExample[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const examples: ToolExample[] = [];
  for (const item of value) {
    if (!item || typeof item !== 'object' || Array.isArray(item)) continue;
    const record = item as Record<string, unknown>;
    const args = record.arguments ?? record.input ?? record.parameters;
    if (args && typeof args === 'object' && !Array.isArray(args)) {
      const example: ToolExample = { arguments: args as Record<string, unknown> };
      if (typeof record.description === 'string') example.description = record.description;
      examples.push(example);
    } else examples.push({ arguments: record });
  }
  return examples;
}

/** Prompt metadata may sit on the function or on the tool wrapper. */
function pick(definition: WireFunction, tool: WireTool, key: string): unknown {
  return definition[key] ?? tool[key];
}

export function parseChatTool(tool: WireTool): ToolDefinition {
  // The wrapped shape {type, function} or the flat one (the function itself).
  const definition = (tool.function ?? tool) as WireFunction;
  const result: ToolDefinition = {
    name: definition.name,
    parameters: definition.parameters ?? { type: 'object', properties: {} },
  };
  if (typeof definition.description === 'string') result.description = definition.description;
  if (typeof definition.strict === 'boolean' || definition.strict === null) result.strict = definition.strict;
  const whenToUse = pick(definition, tool, 'when_to_use');
  if (typeof whenToUse === 'string') result.whenToUse = whenToUse;
  const tags = pick(definition, tool, 'tags');
  if (Array.isArray(tags)) result.tags = tags.filter((tag): tag is string => typeof tag === 'string');
  const examples = examplesOf(pick(definition, tool, 'examples'));
  if (examples) result.examples = examples;
  return result;
}

/**
 * The request's tools in neutral form. A shared list (one the body parser reused) is translated once,
 * and every request that resends it gets the same shared list.
 */
export const parseChatTools = memoiseKnownList((tools: readonly WireTool[]): ToolDefinition[] => tools.map(parseChatTool), shareToolList);

export function parseChatToolChoice(choice: WireToolChoice | undefined): ToolChoice | undefined {
  if (choice === undefined || choice === null) return undefined;
  if (typeof choice === 'string') return { type: choice };
  // `{type: 'function', name}`: the Responses shape, which some clients send here too.
  const name = choice.function?.name ?? (typeof choice.name === 'string' ? choice.name : undefined);
  return name === undefined ? undefined : { type: 'tool', name };
}
