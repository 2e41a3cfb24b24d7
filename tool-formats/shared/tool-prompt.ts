/** Builds a family's tool prompt from its wording, in a fixed, byte-stable layout. */
// Tool list, call syntax, usage notes (`whenToUse`, `tags`), examples in the family's own syntax,
// result conventions and the tool-choice rule.
import { assertNever, type ToolCallPart, type ToolChoice, type ToolDefinition } from '../../src/core/index.js';
import { formatJson } from './format-json.js';

export type CallRenderer = (call: Pick<ToolCallPart, 'name' | 'arguments'> & { id?: string }) => string;

/** What a family says; the layout around it is shared. */
export type ToolPromptWording = {
  /** Paragraphs before the tool list. */
  introduction: string;
  /** The tool list, e.g. JSON lines inside `<tools></tools>`. */
  renderToolList(tools: readonly ToolDefinition[]): string;
  /** How to write a call (the syntax template); follows the list, before usage notes and examples. */
  callInstructions: string;
  /** How tool results come back in later turns. */
  resultInstructions?: string;
};

/** Section order is fixed so the prompt is byte-stable for the same tools and choice. */
export function renderToolPrompt(
  tools: readonly ToolDefinition[],
  choice: ToolChoice,
  wording: ToolPromptWording,
  renderCall: CallRenderer,
): string {
  const offered = selectToolsForChoice(tools, choice);
  if (offered.length === 0) return '';
  const sections = [
    wording.introduction,
    wording.renderToolList(offered),
    wording.callInstructions,
    renderToolNotes(offered),
    renderToolExamples(offered, renderCall),
    wording.resultInstructions,
    describeToolChoice(choice),
  ];
  return joinSections(sections.filter((section): section is string => section !== undefined && section !== ''));
}

/** A blank line between sections; a section that ends its text with a newline (as a template does) brings its own. */
function joinSections(sections: readonly string[]): string {
  let prompt = sections[0] ?? '';
  for (const section of sections.slice(1)) prompt += (prompt.endsWith('\n') ? '\n' : '\n\n') + section;
  return prompt;
}

/** A named tool choice shows only that tool; the others would only invite the wrong call. */
export function selectToolsForChoice(tools: readonly ToolDefinition[], choice: ToolChoice): readonly ToolDefinition[] {
  return choice.type === 'tool' ? tools.filter((tool) => tool.name === choice.name) : tools;
}

export function describeToolChoice(choice: ToolChoice): string | undefined {
  switch (choice.type) {
    case 'auto':
    case 'none':
      return undefined;
    case 'required':
      return 'You must call at least one tool in this reply; do not answer without a tool call.';
    case 'tool':
      return `You must call the tool "${choice.name}" in this reply; do not answer without calling it.`;
    default:
      return assertNever(choice, 'tool choice');
  }
}

/** The OpenAI function shape that Hermes/Qwen and Llama templates print for each tool. */
export function toolAsFunction(tool: ToolDefinition): Record<string, unknown> {
  return { type: 'function', function: toolSignature(tool) };
}

export function toolSignature(tool: ToolDefinition): Record<string, unknown> {
  return { name: tool.name, description: tool.description, parameters: tool.parameters };
}

/** Each tool's function shape as `tojson(indent=4)` prints it, blank lines between (Phi-4-mini, FireFunction, xLAM templates). */
export function renderIndentedFunctions(tools: readonly ToolDefinition[]): string {
  return tools.map((tool) => JSON.stringify(toolAsFunction(tool), null, 4)).join('\n\n');
}

/** One JSON line per tool, in Python spacing. */
export function renderFunctionLines(tools: readonly ToolDefinition[]): string {
  return tools.map((tool) => formatJson(toolAsFunction(tool))).join('\n');
}

export function renderToolNotes(tools: readonly ToolDefinition[]): string | undefined {
  const lines = tools.flatMap((tool) => {
    const tags = tool.tags !== undefined && tool.tags.length > 0 ? `(tags: ${tool.tags.join(', ')})` : undefined;
    const note = [tool.whenToUse?.trim(), tags].filter((part) => part !== undefined && part !== '').join(' ');
    return note === '' ? [] : [`- ${tool.name}: ${note}`];
  });
  return lines.length === 0 ? undefined : ['When to use the tools:', ...lines].join('\n');
}

export function renderToolExamples(tools: readonly ToolDefinition[], renderCall: CallRenderer): string | undefined {
  const examples = tools.flatMap((tool) =>
    (tool.examples ?? []).map((example) => {
      const title =
        example.description === undefined || example.description === '' ? `- ${tool.name}` : `- ${tool.name}: ${example.description}`;
      return `${title}\n${renderCall({ name: tool.name, arguments: JSON.stringify(example.arguments) })}`;
    }),
  );
  return examples.length === 0 ? undefined : ['Examples of tool calls:', ...examples].join('\n');
}
