/** Anthropic `tools` and `tool_choice` (wire) → neutral tool definitions, choice and parallelism. */
import { assertNever } from '../../src/core/assert-never.js';
import { freezeDeeply } from '../../src/core/immutable-values.js';
import type { RequestCaches } from '../../src/core/request-caches.js';
import { shareToolList } from '../../src/core/shared-tool-list.js';
import type { ToolChoice, ToolDefinition } from '../../src/core/tool-definition.js';
import type { Warning } from '../../src/core/warning.js';
import { memoiseKnownList } from '../shared/memoise-known-list.js';
import type { WireTool, WireToolChoice } from './messages-request-schema.js';
import { withCacheMark } from '../shared/wire-cache-mark.js';

/**
 * Claude Code's schemas carry `"$schema": "…/2020-12/schema"`, which strict OpenAI tool schemas and
 * several local servers reject; the dialect marker says nothing about the arguments, so it goes.
 */
function withoutSchemaMarker(schema: Record<string, unknown>): Record<string, unknown> {
  if (!('$schema' in schema)) return schema;
  const { $schema: _marker, ...rest } = schema;
  return rest;
}

type TranslatedTools = { definitions: ToolDefinition[]; warnings: Warning[] };

/**
 * Server tools (`web_search_20250305`, `code_execution_…`) run inside Anthropic's API and
 * Anthropic-defined client tools (`bash_20250124`, `text_editor_…`) have no schema to give
 * another model, so only custom tools (no `type`, or `custom`) are kept.
 */
function translateTools(tools: WireTool[]): TranslatedTools {
  const definitions: ToolDefinition[] = [];
  const warnings: Warning[] = [];
  for (const tool of tools) {
    if (tool.type !== undefined && tool.type !== null && tool.type !== 'custom') {
      warnings.push({
        code: 'unsupported-tool',
        message: `Tool '${tool.name}' of type '${tool.type}' runs inside Anthropic's API and cannot be offered to this model; it was left out.`,
      });
      continue;
    }
    const definition: ToolDefinition = {
      name: tool.name,
      parameters: withoutSchemaMarker(tool.input_schema ?? { type: 'object', properties: {} }),
    };
    if (typeof tool.description === 'string') definition.description = tool.description;
    if (typeof tool.strict === 'boolean') definition.strict = tool.strict;
    definitions.push(withCacheMark(definition, tool));
  }
  return { definitions, warnings };
}

/** Claude Code resends ~50 KB of tools every turn: a shared list is translated once (see memoise-known-list.ts). */
const translateKnownOrNew = memoiseKnownList(translateTools, (translated) =>
  freezeDeeply({ ...translated, definitions: shareToolList(translated.definitions) }),
);

/** The custom tools in neutral form; the dropped ones are reported into `warnings`, on every request. */
export function parseAnthropicTools(
  tools: WireTool[],
  warnings: Warning[],
  caches?: Pick<RequestCaches, 'toolTranslations'>,
): ToolDefinition[] {
  const translated = translateKnownOrNew(tools, caches?.toolTranslations);
  warnings.push(...translated.warnings);
  return translated.definitions;
}

export type ParsedToolChoice = { toolChoice?: ToolChoice; parallelToolCalls?: boolean };

export function parseAnthropicToolChoice(choice: WireToolChoice | undefined): ParsedToolChoice {
  if (choice === undefined) return {};
  const parsed: ParsedToolChoice = {};
  switch (choice.type) {
    case 'auto':
    case 'none':
      parsed.toolChoice = { type: choice.type };
      break;
    case 'any':
      parsed.toolChoice = { type: 'required' };
      break;
    case 'tool':
      parsed.toolChoice = { type: 'tool', name: choice.name as string };
      break;
    default:
      assertNever(choice.type, 'tool_choice type');
  }
  // Only an explicit "disable" means something; leaving it out keeps the upstream's default.
  if (choice.disable_parallel_tool_use === true) parsed.parallelToolCalls = false;
  return parsed;
}
