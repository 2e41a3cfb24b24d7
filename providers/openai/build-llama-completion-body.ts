/**
 * The two bodies of llama-server's prompted lane: `POST /apply-template` renders the conversation
 * through the model's own chat template, and `POST /completion` generates from that prompt with the
 * family's special tokens preserved (llama-server renders a special token as text only with --special
 * or when the request preserves it; its chat endpoint preserves a template's tokens only for requests
 * with tools, which the prompted lane does not send).
 * @see https://github.com/ggml-org/llama.cpp/blob/master/tools/server/README.md
 */

// /apply-template takes a chat body (oaicompat_chat_params_parse in tools/server/server-common.cpp) and
// answers { prompt }. /completion reads its fields in params_from_json_cmpl (tools/server/server-task.cpp):
// `preserved_tokens` are strings, each kept when it is exactly one token of the model's vocabulary.
import { setIfGiven, setSharedSamplingOptions } from './build-openai-request-body.js';
import type { ChatRequest } from '../../src/core/chat-request.js';
import { isServerSamplingExtension } from '../../src/core/server-sampling-extensions.js';
import { convertTools } from './build-openai-request-body.js';
import { compatibleMessages } from './build-openai-request-body.js';

/** The conversation, and the tools when the pipeline lets the template render them (tool_choice `none`). */
export function buildApplyTemplateBody(request: ChatRequest): Record<string, unknown> {
  // As on its chat endpoint: calls' arguments as objects (arguments-object.ts), the kept reasoning in `reasoning_content`.
  const body: Record<string, unknown> = { messages: compatibleMessages(request) };
  if (request.tools?.length) {
    body.tools = convertTools(request.tools);
    // `none` takes common/chat.cpp's plain handler: the template renders the tools, llama.cpp adds nothing.
    body.tool_choice = 'none';
  }
  // Template switches such as enable_thinking change the prompt, so they belong to the rendering.
  setIfGiven(body, 'chat_template_kwargs', request.openaiExtras?.chat_template_kwargs);
  return body;
}

/** The generation: the neutral options under llama-server's names, plus the client's own llama.cpp fields. */
export function buildLlamaCompletionBody(request: ChatRequest, prompt: string, stream: boolean): Record<string, unknown> {
  const body: Record<string, unknown> = { model: request.model.model, prompt, stream };
  const extras = request.openaiExtras;
  for (const name in extras) if (isServerSamplingExtension(name)) body[name] = extras[name];
  // vLLM's name for the same penalty, which a client written for vLLM sends.
  if (body.repeat_penalty === undefined) setIfGiven(body, 'repeat_penalty', extras?.repetition_penalty);
  delete body.repetition_penalty;
  setIfGiven(body, 'n_predict', request.maxOutputTokens);
  setSharedSamplingOptions(body, request);
  const format = request.responseFormat;
  if (format?.type === 'json_object') body.json_schema = { type: 'object' };
  else if (format?.type === 'json_schema' && format.schema) body.json_schema = format.schema;
  if (request.keepSpecialTokens?.length) body.preserved_tokens = request.keepSpecialTokens;
  const top = llamaTopLogprobs(request);
  // n_probs 0 returns no probabilities at all, so the chosen token alone still takes one candidate (trimmed on the way back).
  if (top !== undefined) body.n_probs = Math.max(top, 1);
  return body;
}

/**
 * How many top candidates the client asked for with `logprobs: true` (0 when `top_logprobs` is absent), or
 * undefined when it asked for none. llama-server's `/completion` takes them as `n_probs` and answers with
 * `completion_probabilities` (tools/server/README.md).
 */
export function llamaTopLogprobs(request: ChatRequest): number | undefined {
  const extras = request.openaiExtras;
  if (extras?.logprobs !== true) return undefined;
  return typeof extras.top_logprobs === 'number' ? extras.top_logprobs : 0;
}
