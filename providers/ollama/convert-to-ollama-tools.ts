/** Neutral tools and tool choice → Ollama `tools`, with warnings for the choices Ollama cannot enforce. */
import { assertNever, type ToolChoice, type ToolDefinition, type Warning } from '../../src/core/index.js';
import type { OllamaWireTool } from './ollama-wire-types.js';
import { unsupportedParameterWarning } from './unsupported-parameter-warning.js';

export type OllamaToolsConversion = { tools: OllamaWireTool[] | undefined; warnings: Warning[] };

export function convertToOllamaTools(options: {
  tools?: ToolDefinition[];
  toolChoice?: ToolChoice;
  parallelToolCalls?: boolean | null;
}): OllamaToolsConversion {
  const { tools, toolChoice, parallelToolCalls } = options;
  if (!tools || tools.length === 0) return { tools: undefined, warnings: [] };
  const warnings: Warning[] = [];
  // Ollama has no tool_choice: `none` is honoured by not offering tools; forcing a call cannot be.
  switch (toolChoice?.type) {
    case undefined:
    case 'auto':
      break;
    case 'none':
      return { tools: undefined, warnings };
    case 'required':
      warnings.push(unsupportedParameterWarning('tool_choice', "'required' cannot be enforced; the model may answer without a tool call"));
      break;
    case 'tool':
      warnings.push(unsupportedParameterWarning('tool_choice', `forcing '${toolChoice.name}' cannot be enforced; all tools were offered`));
      break;
    default:
      assertNever(toolChoice, 'tool choice');
  }
  if (parallelToolCalls === false) {
    warnings.push(unsupportedParameterWarning('parallel_tool_calls', 'false cannot be enforced; the model may return several calls'));
  }
  return { tools: tools.map(convertTool), warnings };
}

function convertTool(tool: ToolDefinition): OllamaWireTool {
  const converted: OllamaWireTool = { type: 'function', function: { name: tool.name, parameters: tool.parameters } };
  if (tool.description !== undefined) converted.function.description = tool.description;
  return converted;
}
