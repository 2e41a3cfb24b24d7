/**
 * An earlier tool call's arguments as the JSON object that servers rendering the history through a chat
 * template need (templates iterate `arguments|items`): Ollama and Bedrock's Converse take an object, and
 * vLLM, SGLang and llama-server parse the text into one, failing the whole request when it is not one
 * (vLLM's chat_utils.py `_postprocess_messages` runs json.loads on it; llama-server answers 500 "Failed to
 * parse tool call arguments as JSON").
 * Clients send such history back as they got it: a call cut off at the token limit, a parser that let
 * broken JSON through. Refusing it would end the conversation for good, since every later turn carries it;
 * so arguments that are not a JSON object go as an object holding their text, `{"arguments": "…"}`, and
 * the model still sees what it wrote. Empty arguments are `{}`.
 */

function parsedObject(text: string): Record<string, unknown> | undefined {
  // Only an object can be one; skipping the parse of anything else also skips its cost.
  if (!text.trimStart().startsWith('{')) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

export function argumentsObject(text: string): Record<string, unknown> {
  if (text.trim() === '') return {};
  return parsedObject(text) ?? { arguments: text };
}

/** The same as JSON text, for servers that take the text and parse it: the text itself when it already is an object. */
export function argumentsObjectText(text: string): string {
  if (text.trim() === '') return '{}';
  return parsedObject(text) === undefined ? JSON.stringify({ arguments: text }) : text;
}
