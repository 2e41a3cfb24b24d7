/** Anthropic `tools` and `tool_choice` (wire) → neutral tool definitions, choice and parallelism. */
import { assertNever } from '../../src/core/assert-never.js';
import { invalidRequest } from '../../src/core/gateway-error.js';
import { freezeDeeply } from '../../src/core/immutable-values.js';
import type { RequestCaches } from '../../src/core/request-caches.js';
import { shareToolList } from '../../src/core/shared-tool-list.js';
import type { ToolChoice, ToolDefinition } from '../../src/core/tool-definition.js';
import type { Warning } from '../../src/core/warning.js';
import { memoiseKnownList } from '../shared/memoise-known-list.js';
import type { WireTool, WireToolChoice } from './messages-request-schema.js';
import { anthropicClientTool } from './anthropic-client-tools.js';
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
 * Anthropic's server tools, which run inside Anthropic's API and which no other model can be given: web search,
 * web fetch, code execution, tool search and the MCP connector's toolsets
 * (https://platform.claude.com/docs/en/agents-and-tools/tool-use/overview, "Server tools"). Tool search is
 * also named without a date: Anthropic's own list of tags has `tool_search_tool_bm25` beside
 * `tool_search_tool_bm25_20251119` (quoted in anthropics/claude-code#61624).
 */
const serverToolType = /^(?:(?:web_search|web_fetch|code_execution)_\d{8}|tool_search_tool_(?:regex|bm25)(?:_\d{8})?|mcp_toolset)$/;

/**
 * Custom tools (no `type`, or `custom`) are kept, and so are the Anthropic-defined client tools (bash, text
 * editor, computer use, memory), with the schema Anthropic documents for them (anthropic-client-tools.ts).
 * Server tools run inside Anthropic's API: they are left out, with a warning. Any other type is a 400 naming
 * it, as Anthropic's API answers one it does not know: left out, the model would lack a tool the client counts on.
 */
function translateTools(tools: WireTool[]): TranslatedTools {
  const definitions: ToolDefinition[] = [];
  const warnings: Warning[] = [];
  for (const [index, tool] of tools.entries()) {
    if (tool.type !== undefined && tool.type !== null && tool.type !== 'custom') {
      const clientTool = anthropicClientTool(tool.type, tool as Record<string, unknown> & { name: string }, `tools[${index}]`);
      if (clientTool) definitions.push(withCacheMark(clientTool, tool));
      else if (serverToolType.test(tool.type))
        warnings.push({
          code: 'unsupported-tool',
          message: `Tool '${tool.name}' of type '${tool.type}' is a server tool, run inside Anthropic's API, and cannot be offered to this model; it was left out.`,
        });
      else
        throw invalidRequest(
          `Tool '${tool.name}' has type '${tool.type}', which is not a tool type this gateway knows: use a custom tool (no type, with an input_schema), ` +
            'or one of the Anthropic-defined client tools (bash, text editor, computer use, memory).',
          `tools[${index}].type`,
        );
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
