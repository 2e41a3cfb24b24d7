/** The tools offered in one request: only names that resolve here may become calls (the roster rule). */
import type { ToolDefinition } from '../../src/core/index.js';

export type ToolRoster = {
  readonly tools: readonly ToolDefinition[];
  /** The offered tool a model-written name refers to, or undefined when it names no offered tool. */
  resolve(name: string): ToolDefinition | undefined;
};

/** OpenAI-trained models often write the namespace of their native tool channel (`functions.get_weather`). */
const namespacePrefix = 'functions.';

/** Built per reply: a map of the tools' names costs about a microsecond per 25 tools, less than a cache lookup is worth keeping for. */
export function createToolRoster(tools: readonly ToolDefinition[]): ToolRoster {
  const byName = new Map<string, ToolDefinition>();
  for (const tool of tools) if (!byName.has(tool.name)) byName.set(tool.name, tool);
  return {
    tools,
    resolve(name) {
      const exact = byName.get(name);
      if (exact !== undefined || !name.startsWith(namespacePrefix)) return exact;
      return byName.get(name.slice(namespacePrefix.length));
    },
  };
}

/** The names of a tool's parameters, from its JSON Schema `properties`. */
export function parameterNames(tool: ToolDefinition): string[] {
  const properties = tool.parameters['properties'];
  if (typeof properties !== 'object' || properties === null || Array.isArray(properties)) return [];
  return Object.keys(properties);
}
