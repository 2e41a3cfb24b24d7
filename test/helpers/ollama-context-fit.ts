/**
 * How Ollama fits a chat into the model's context (`num_ctx`, OLLAMA_CONTEXT_LENGTH's default 4096 unless the
 * request's `options.num_ctx` says), counted four characters to a token. Follows ollama/ollama v0.33:
 * - `truncate` (api/types.go ChatRequest, since 0.12.6; true when absent, and always on the OpenAI-compatible
 *   endpoint, whose request has no such field: openai/openai.go): the oldest messages are dropped, system
 *   messages kept, until the rest fits; the last message is always kept (server/prompt.go, `chatPrompt`).
 *   A prompt still too long is cut in its middle when the model's runner shifts its context, as every model
 *   but the `deepseek2` family does by default (server/sched.go, `supportsContextShift`), and refused
 *   otherwise with Ollama's own 400 (llm/llama_server.go, `completionPromptForRequest`);
 * - `truncate: false`: the prompt goes to llama-server whole, which refuses it (`exceed_context_size_error`,
 *   tools/server/server-context.cpp) and Ollama passes that body on as the text of its own error with the
 *   same 400 (llm/llama_server.go, `statusErrorMessage`; server/routes.go, ChatHandler).
 */
import { messagesText } from './scripted-generation.js';
import type { ScriptedModel } from './scripted-models.js';

const defaultContextLength = 4096;

type Message = Record<string, unknown>;

/** Ollama's refusal: its status and the text of its `{"error": …}` body. */
type OllamaContextRefusal = { status: number; message: string };

function contextLength(body: Record<string, unknown>): number {
  const options = body.options as { num_ctx?: unknown } | undefined;
  return typeof options?.num_ctx === 'number' ? options.num_ctx : defaultContextLength;
}

function tokensOf(messages: readonly Message[]): number {
  return Math.ceil(messagesText({ messages }).length / 4);
}

/** `chatPrompt`: the system messages before the first kept one, then every message from it on. */
function keptByTruncation(messages: readonly Message[], limit: number): Message[] {
  for (let first = 0; first < messages.length; first++) {
    const kept = [...messages.slice(0, first).filter((message) => message.role === 'system'), ...messages.slice(first)];
    if (tokensOf(kept) <= limit || first === messages.length - 1) return kept;
  }
  return [];
}

/** Undefined when Ollama answers the chat (perhaps with part of it dropped, which the scripted reply does not show). */
export function ollamaContextRefusal(
  body: Record<string, unknown>,
  model: ScriptedModel,
  truncate: boolean,
): OllamaContextRefusal | undefined {
  const limit = contextLength(body);
  const messages = Array.isArray(body.messages) ? (body.messages as Message[]) : [];
  if (!truncate) {
    const promptTokens = tokensOf(messages);
    if (promptTokens < limit) return undefined;
    const refusal = {
      error: {
        code: 400,
        message: `request (${promptTokens} tokens) exceeds the available context size (${limit} tokens), try increasing it`,
        type: 'exceed_context_size_error',
        n_prompt_tokens: promptTokens,
        n_ctx: limit,
      },
    };
    return { status: 400, message: JSON.stringify(refusal) };
  }
  if (tokensOf(keptByTruncation(messages, limit)) <= limit - 1 || model.architecture !== 'deepseek2') return undefined;
  return {
    status: 400,
    message:
      'the prompt is longer than the context length currently available to the model; shorten the prompt, adjust the context length in settings, or use a model with a longer context length',
  };
}
