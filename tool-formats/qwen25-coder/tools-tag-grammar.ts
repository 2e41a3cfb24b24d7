/** The body of Qwen2.5-Coder's `<tools>` envelope: JSON calls, but not the tool definitions the prompt lists in the same tag. */
// A model echoing its tool list writes `{"type": "function", "function": {"name", "description",
// "parameters": {…schema…}}}` in `<tools>`; read as a call, the schema would become the arguments.
import type { BodyGrammar } from '../shared/body-grammar.js';
import { isPlainObject } from '../shared/call-arguments.js';
import { jsonCallGrammar } from '../shared/json-call-grammar.js';
import { parseLenientJson } from '../shared/lenient-json.js';

export const toolsTagGrammar: BodyGrammar = {
  id: 'qwen25-coder-tools-tag',
  accepts: (body) => jsonCallGrammar.accepts(body),
  decode(body, context) {
    if (isToolDefinitionList(body)) return { type: 'invalid', message: 'A tool definition, not a tool call' };
    return jsonCallGrammar.decode(body, context);
  },
};

function isToolDefinitionList(body: string): boolean {
  const parsed = parseLenientJson(body);
  if (parsed.type === 'error') return false;
  const items = Array.isArray(parsed.value) ? parsed.value : [parsed.value];
  return items.length > 0 && items.every(isToolDefinition);
}

/** A description and a parameter schema, bare or in OpenAI's `function` wrapper; a call has arguments instead. */
function isToolDefinition(item: unknown): boolean {
  if (!isPlainObject(item)) return false;
  const definition = isPlainObject(item.function) ? item.function : item;
  return (
    typeof definition.description === 'string' &&
    isPlainObject(definition.parameters) &&
    'properties' in definition.parameters &&
    !('arguments' in definition)
  );
}
