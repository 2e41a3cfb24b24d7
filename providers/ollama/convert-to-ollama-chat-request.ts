/** A neutral ChatRequest → the `/api/chat` body, plus warnings for everything Ollama cannot honour. */
import { assertNever, type ChatRequest, type ResponseFormat, type Warning } from '../../src/core/index.js';
import { convertToOllamaMessages } from './convert-to-ollama-messages.js';
import { convertToOllamaOptions, isOllamaOptionExtra } from './convert-to-ollama-options.js';
import { convertToOllamaTools } from './convert-to-ollama-tools.js';
import type { OllamaThink, OllamaWireChatRequest } from './ollama-wire-types.js';
import { unsupportedParameterWarning } from './unsupported-parameter-warning.js';

export type OllamaChatRequestConversion = { body: OllamaWireChatRequest; warnings: Warning[] };

/**
 * `truncate: false`: by default Ollama fits a chat longer than the model's context by dropping its oldest
 * messages (server/prompt.go, `chatPrompt`) and then, for a last message still too long, the middle of the
 * prompt (llm/llama_server.go, `completionPromptForRequest`, with context shift on, as it is for most
 * models), and answers as if nothing happened. Asked not to, it passes llama-server's own refusal on (a 400,
 * `exceed_context_size_error`), which every inbound API reports as a context overflow. Versions before
 * 0.12.6 ignore the field and still truncate. `shift` is left alone: it is a setting of the model's runner
 * (server/sched.go), and a request asking otherwise than the loaded runner makes Ollama reload the model.
 * A client may still ask for the truncation with `truncate: true` in its body.
 */
export function convertToOllamaChatRequest(request: ChatRequest, delivery: { stream: boolean }): OllamaChatRequestConversion {
  const messages = convertToOllamaMessages(request.messages);
  const tools = convertToOllamaTools(request);
  const warnings = [...messages.warnings, ...tools.warnings];
  const body: OllamaWireChatRequest = { model: request.model.model, messages: messages.messages, truncate: false, stream: delivery.stream };
  if (tools.tools) body.tools = tools.tools;
  const format = convertResponseFormat(request.responseFormat);
  if (format !== undefined) body.format = format;
  const think = convertReasoningEffort(request.reasoningEffort, warnings);
  if (think !== undefined) body.think = think;
  const options = convertToOllamaOptions(request);
  if (options) body.options = options;
  if (request.user !== undefined && request.user !== null) {
    warnings.push(unsupportedParameterWarning('user', 'the value was not sent upstream'));
  }
  for (const key of Object.keys(request.openaiExtras ?? {})) {
    if (isOllamaOptionExtra(key)) continue;
    if (forwardOllamaField(key, request.openaiExtras?.[key], body)) continue;
    warnings.push(unsupportedParameterWarning(key, 'the value was not sent upstream'));
  }
  return { body, warnings };
}

/**
 * `logprobs` (boolean) and `top_logprobs` (a count) go to `/api/chat` under the same names (api/types.go,
 * ChatRequest, since 0.12.11); Ollama itself answers a `top_logprobs` outside 0–20 with a 400. `truncate`
 * (boolean) replaces the gateway's `false`. A value of another type is not sent, and says so. True when the
 * field was one of them and was sent.
 */
function forwardOllamaField(key: string, value: unknown, body: OllamaWireChatRequest): boolean {
  if (key === 'logprobs' && typeof value === 'boolean') body.logprobs = value;
  else if (key === 'top_logprobs' && typeof value === 'number') body.top_logprobs = value;
  else if (key === 'truncate' && typeof value === 'boolean') body.truncate = value;
  else return false;
  return true;
}

function convertResponseFormat(format: ResponseFormat | null | undefined): OllamaWireChatRequest['format'] {
  if (!format) return undefined;
  switch (format.type) {
    case 'text':
      return undefined;
    case 'json_object':
      return 'json';
    case 'json_schema':
      // Ollama takes the schema itself in `format` (structured outputs); without one, plain JSON mode.
      return format.schema ?? 'json';
    default:
      return assertNever(format, 'response format');
  }
}

/** Ollama's `think` takes levels for gpt-oss and a boolean for other thinking models. */
function convertReasoningEffort(effort: string | null | undefined, warnings: Warning[]): OllamaThink | undefined {
  if (effort === undefined || effort === null) return undefined;
  switch (effort) {
    case 'low':
    case 'medium':
    case 'high':
      return effort;
    case 'minimal':
    case 'none':
      return false;
    default:
      warnings.push(unsupportedParameterWarning('reasoning_effort', `the value '${effort}' has no Ollama equivalent and was not sent`));
      return undefined;
  }
}
