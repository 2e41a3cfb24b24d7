/** Ollama's OpenAI-compatible `/v1` has no `tool_choice`: `none` is kept by not offering tools, the rest said. */
// Its ChatCompletionRequest has no tool_choice field, so the value is dropped and every offered tool is
// rendered and parsed (https://github.com/ollama/ollama/blob/main/openai/openai.go): a client that asked
// for no calls would get them. The native Ollama provider does the same (providers/ollama/convert-to-ollama-tools.ts).
import type { ChatRequest } from '../../src/core/chat-request.js';
import type { Warning } from '../../src/core/warning.js';

const ignoresToolChoice = (request: ChatRequest) => request.model.server === 'ollama';

/** Whether the request's tools go on the wire: not to Ollama under `tool_choice: "none"`. */
export function offersTools(request: ChatRequest): boolean {
  return !(ignoresToolChoice(request) && request.toolChoice?.type === 'none');
}

/** What Ollama cannot enforce of the request's tool choice. */
export function ollamaToolChoiceWarnings(request: ChatRequest): Warning[] {
  const choice = request.toolChoice;
  if (!ignoresToolChoice(request) || !request.tools?.length || (choice?.type !== 'required' && choice?.type !== 'tool')) return [];
  const forced = choice.type === 'tool' ? `forcing '${choice.name}'` : "'required'";
  return [
    {
      code: 'unsupported-parameter',
      message: `Ollama does not support 'tool_choice': ${forced} cannot be enforced; the model may answer without a tool call or call another tool`,
    },
  ];
}
