/**
 * Responses tools and tool_choice → neutral tools. Function tools map one to one; freeform `custom`
 * tools (Codex's apply_patch) become a function with one string argument `input`; `namespace` tools
 * are flattened; hosted tools (web_search, tool_search, file_search, mcp, …) have no neutral
 * meaning and are dropped with a warning.
 */
import { gatewayError, invalidRequest } from '../../src/core/gateway-error.js';
import { freezeDeeply } from '../../src/core/immutable-values.js';
import type { RequestCaches } from '../../src/core/request-caches.js';
import { shareToolList } from '../../src/core/shared-tool-list.js';
import type { ToolChoice, ToolDefinition } from '../../src/core/tool-definition.js';
import type { Warning } from '../../src/core/warning.js';
import { memoiseKnownList } from '../shared/memoise-known-list.js';
import type { WireTool, WireToolChoice } from './responses-request-schema.js';

/** What the renderer needs to turn neutral calls back into the right item types. */
export type ToolKinds = {
  /** Names of freeform tools: their calls are rendered as `custom_tool_call` items. */
  custom: ReadonlySet<string>;
  /** Tool name → the namespace it was declared in. */
  namespaces: ReadonlyMap<string, string>;
};

export type ParsedTools = { tools: ToolDefinition[]; kinds: ToolKinds; warnings: Warning[] };

/** The one argument a freeform tool's input travels in; the renderer unwraps it again. */
export const customInputArgument = 'input';

function functionDefinition(tool: WireTool): ToolDefinition {
  const definition: ToolDefinition = {
    name: tool.name as string,
    parameters: (tool.parameters as Record<string, unknown> | null | undefined) ?? { type: 'object', properties: {} },
  };
  if (typeof tool.description === 'string') definition.description = tool.description;
  if (typeof tool.strict === 'boolean' || tool.strict === null) definition.strict = tool.strict as boolean | null;
  return definition;
}

function grammarHint(format: unknown): string {
  if (!format || typeof format !== 'object') return '';
  const { type, syntax, definition } = format as Record<string, unknown>;
  if (type !== 'grammar' || typeof definition !== 'string') return '';
  const language = typeof syntax === 'string' ? `${syntax} ` : '';
  return ` It must match this ${language}grammar:\n${definition}`;
}

/**
 * A freeform tool as a function: models without OpenAI's grammar-constrained decoding can still
 * call it, and the raw text travels JSON-escaped in `input`.
 */
function customDefinition(tool: WireTool): ToolDefinition {
  const note = `This is a freeform tool: pass the whole raw text as the string argument "${customInputArgument}".`;
  const definition: ToolDefinition = {
    name: tool.name as string,
    description: typeof tool.description === 'string' && tool.description ? `${tool.description}\n\n${note}` : note,
    parameters: {
      type: 'object',
      properties: {
        [customInputArgument]: { type: 'string', description: `The raw input text, not wrapped in JSON.${grammarHint(tool.format)}` },
      },
      required: [customInputArgument],
      additionalProperties: false,
    },
  };
  return definition;
}

/**
 * The part of the translation that depends on the list alone, so a shared list's is shared by every
 * request that resends it. The kinds are kept as plain lists: a Set or Map cannot be frozen.
 */
type TranslatedTools = { tools: ToolDefinition[]; custom: string[]; namespaces: [name: string, namespace: string][]; warnings: Warning[] };

function translateTools(wireTools: WireTool[]): TranslatedTools {
  const tools: ToolDefinition[] = [];
  const custom: string[] = [];
  const namespaces: [string, string][] = [];
  const warnings: Warning[] = [];
  const seen = new Set<string>();

  const add = (tool: WireTool, param: string, namespace?: string) => {
    const definition = tool.type === 'custom' ? customDefinition(tool) : functionDefinition(tool);
    if (seen.has(definition.name)) {
      throw gatewayError('duplicate_tool_name', {
        message: `Duplicate tool name '${definition.name}' at '${param}.name': each tool needs a unique name.`,
        param: `${param}.name`,
      });
    }
    seen.add(definition.name);
    tools.push(definition);
    if (tool.type === 'custom') custom.push(definition.name);
    if (namespace !== undefined) namespaces.push([definition.name, namespace]);
  };

  for (const [index, tool] of wireTools.entries()) {
    switch (tool.type) {
      case 'function':
      case 'custom':
        add(tool, `tools[${index}]`);
        break;
      case 'namespace':
        for (const [inner, member] of (tool.tools as WireTool[]).entries())
          add(member, `tools[${index}].tools[${inner}]`, tool.name as string);
        break;
      default:
        warnings.push({
          code: 'unsupported-tool',
          message: `Tool type '${tool.type}' (tools[${index}]) is hosted by OpenAI and cannot run through this gateway; it was dropped.`,
        });
    }
  }
  return { tools, custom, namespaces, warnings };
}

/** Codex resends its tools every turn: a shared list is translated once (see memoise-known-list.ts). */
const translateKnownOrNew = memoiseKnownList(translateTools, (translated) =>
  freezeDeeply({ ...translated, tools: shareToolList(translated.tools) }),
);

/** The neutral tools (shared when the list is known); the kinds and warnings are this request's own. */
export function parseResponsesTools(
  wireTools: WireTool[] | null | undefined,
  caches?: Pick<RequestCaches, 'toolTranslations'>,
): ParsedTools {
  const translated = translateKnownOrNew(wireTools ?? [], caches?.toolTranslations);
  return {
    tools: translated.tools,
    kinds: { custom: new Set(translated.custom), namespaces: new Map(translated.namespaces) },
    warnings: [...translated.warnings],
  };
}

export type ParsedToolChoice = {
  toolChoice?: ToolChoice;
  /** From `allowed_tools`: only these tools are offered. */
  allowedTools?: Set<string>;
  warnings: Warning[];
};

export function parseResponsesToolChoice(choice: WireToolChoice | undefined): ParsedToolChoice {
  if (choice === undefined || choice === null) return { warnings: [] };
  if (typeof choice === 'string') return { toolChoice: { type: choice }, warnings: [] };
  switch (choice.type) {
    case 'function':
    case 'custom':
      if (typeof choice.name !== 'string') throw invalidRequest("Missing required parameter: 'tool_choice.name'.", 'tool_choice.name');
      return { toolChoice: { type: 'tool', name: choice.name }, warnings: [] };
    case 'allowed_tools': {
      const mode = choice.mode === 'required' ? 'required' : 'auto';
      const listed = Array.isArray(choice.tools) ? (choice.tools as Record<string, unknown>[]) : [];
      // Functions and custom tools by name; a hosted tool listed here was dropped with its warning.
      const names = listed.flatMap((tool) =>
        typeof tool?.name === 'string' && (tool.type === undefined || tool.type === 'function' || tool.type === 'custom')
          ? [tool.name]
          : [],
      );
      return { toolChoice: { type: mode }, allowedTools: new Set(names), warnings: [] };
    }
    default:
      // A hosted tool (`{type:"web_search"}`, `{type:"mcp"}`, …): its tool was dropped, so let the model choose.
      return {
        warnings: [
          {
            code: 'unsupported-tool-choice',
            message: `tool_choice type '${choice.type}' names a hosted tool this gateway cannot run; it was ignored.`,
          },
        ],
      };
  }
}
