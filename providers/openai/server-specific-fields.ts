/**
 * The fields of an OpenAI body that belong to one kind of server: the inference servers' own sampling and
 * decoding fields (never sent to OpenAI itself, which rejects unknown fields), and the prompted lane's
 * request that vLLM or SGLang keep the reply's special tokens.
 */
import type { ChatRequest } from '../../src/core/chat-request.js';
import { isServerSamplingExtension } from '../../src/core/server-sampling-extensions.js';
import type { Warning } from '../../src/core/warning.js';

/** The client's extras as OpenAI itself takes them: the servers' own fields left out. */
export function extrasForOpenAi(extras: Record<string, unknown> | undefined): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const name in extras) if (!isServerSamplingExtension(name)) kept[name] = extras[name];
  return kept;
}

/** What extrasForOpenAi left out, said rather than dropped in silence. */
export function serverFieldWarnings(extras: Record<string, unknown> | undefined): Warning[] {
  const warnings: Warning[] = [];
  for (const name in extras) {
    if (isServerSamplingExtension(name))
      warnings.push({
        code: 'unsupported-parameter',
        message: `'${name}' is a vLLM/llama.cpp field that OpenAI does not take; it was not sent.`,
      });
  }
  return warnings;
}

/**
 * vLLM and SGLang remove special tokens from the reply unless told not to (`skip_special_tokens`
 * defaults to true; their tool parsers turn it off only for requests with tools, which the prompted
 * lane does not send), and put spaces between them; the parser needs the markers as the model wrote
 * them. A value the client sent itself is kept.
 * @see https://github.com/vllm-project/vllm/blob/main/vllm/entrypoints/openai/chat_completion/protocol.py
 */
export function askToKeepSpecialTokens(request: ChatRequest, body: Record<string, unknown>): void {
  if (request.keepSpecialTokens === undefined) return;
  const server = request.model.server;
  if (server !== 'vllm' && server !== 'sglang') return;
  if (body.skip_special_tokens === undefined) body.skip_special_tokens = false;
  if (body.spaces_between_special_tokens === undefined) body.spaces_between_special_tokens = false;
}
