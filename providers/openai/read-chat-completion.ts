/**
 * A whole (non-streaming) `chat.completion` body → the same chunk batches an SSE body decodes to, so
 * that one reader (readOpenAiStream) turns both into neutral events.
 * Wire format: https://platform.openai.com/docs/api-reference/chat/object
 */
import { gatewayError, type GatewayError } from '../../src/core/gateway-error.js';
import { errorFromInBandOverflow, readUpstreamErrorMessage } from '../../src/http/upstream-error.js';

type LooseToolCall = { id?: unknown; type?: unknown; function?: unknown };
type LooseMessage = Record<string, unknown> & { tool_calls?: LooseToolCall[] | null };
type LooseChoice = {
  message?: LooseMessage | null;
  finish_reason?: unknown;
  stop_reason?: unknown;
  matched_stop?: unknown;
  logprobs?: unknown;
};

function badReply(provider: string, detail: string, upstreamBody?: unknown): GatewayError {
  return gatewayError('upstream_bad_response', { message: `Upstream provider '${provider}' ${detail}`, upstreamBody });
}

/**
 * One completion is one chunk whose delta is the whole message; tool calls get the `index` that
 * streamed fragments carry (the array order), so the tool-call tracker reads them unchanged.
 * Only the members the reader looks at are copied, into objects of one shape each (no spreads of
 * whatever the server sent).
 */
export function completionAsChunk(completion: Record<string, unknown>): Record<string, unknown> {
  const choices = Array.isArray(completion.choices) ? (completion.choices as LooseChoice[]) : [];
  const choice = choices[0];
  if (!choice) return { id: completion.id, model: completion.model, usage: completion.usage, choices: [] };
  const message = choice.message ?? {};
  const delta = {
    content: message.content,
    reasoning_content: message.reasoning_content,
    reasoning: message.reasoning,
    refusal: message.refusal,
    tool_calls: Array.isArray(message.tool_calls) ? message.tool_calls.map(asFragment) : undefined,
  };
  return {
    id: completion.id,
    model: completion.model,
    usage: completion.usage,
    choices: [
      {
        delta,
        finish_reason: choice.finish_reason ?? null,
        stop_reason: choice.stop_reason,
        matched_stop: choice.matched_stop,
        // The whole reply's tokens: they ride on its one text delta.
        logprobs: choice.logprobs,
      },
    ],
  };
}

function asFragment(call: LooseToolCall, index: number): Record<string, unknown> {
  return { index, id: call.id, type: call.type, function: call.function };
}

/** Parses a 2xx body into one batch of one chunk; an answer that is not a completion (or carries an error) is a 502. */
export function parseChatCompletion(text: string, provider: string): Record<string, unknown>[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw badReply(provider, 'sent a reply that is not JSON.');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw badReply(provider, 'sent a reply that is not a chat completion.');
  const completion = parsed as Record<string, unknown>;
  if (completion.error !== undefined && completion.choices === undefined) {
    const overflow = errorFromInBandOverflow(completion);
    if (overflow) throw overflow;
    const message = readUpstreamErrorMessage(completion) ?? 'unknown error';
    throw gatewayError('upstream_error', { message: `Upstream provider '${provider}' failed: ${message}`, upstreamBody: completion.error });
  }
  return [completionAsChunk(completion)];
}
