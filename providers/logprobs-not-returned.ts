/**
 * Log probabilities asked for and none returned: an upstream that does not know the fields ignores them
 * without a word. Ollama's `/api/chat` took `logprobs` and `top_logprobs` from 0.12.11 on
 * (https://github.com/ollama/ollama/releases/tag/v0.12.11); an older one decodes the request with Go's
 * encoding/json, which drops unknown fields, and Ollama's OpenAI-compatible `/v1` dropped them too
 * (ollama/ollama#16117). Other OpenAI-compatible servers (LM Studio, proxies in front of a model) do the same.
 * The reply then has text and no tokens; the client is told in a `logprobs-partial` warning rather than
 * left to read an empty list as "no tokens were generated".
 */
import type { ChatRequest } from '../src/core/chat-request.js';
import type { StreamEvent } from '../src/core/stream-event.js';
import { logprobsPartialCode } from '../src/core/token-logprob.js';
import type { Warning } from '../src/core/warning.js';

/** The client asked for log probabilities (`logprobs: true`, which every kind reads from the OpenAI extras). */
export function asksForLogprobs(request: ChatRequest): boolean {
  return request.openaiExtras?.logprobs === true;
}

function noneReturned(provider: string): Warning {
  return {
    code: logprobsPartialCode,
    message: `Log probabilities were asked for, but provider '${provider}' returned none for the content: the upstream ignores logprobs (Ollama before 0.12.11, or a server without them).`,
  };
}

/** The reply's events as they come, the finish with the warning when it had text and not one token. */
async function* checked(events: AsyncIterable<StreamEvent>, provider: string): AsyncIterable<StreamEvent> {
  let text = false;
  let tokens = false;
  for await (const event of events) {
    if (event.type === 'text-delta') {
      text = true;
      if (event.logprobs?.length) tokens = true;
    } else if (event.type === 'finish' && text && !tokens) {
      const warnings = [...(event.diagnostics?.warnings ?? []), noneReturned(provider)];
      yield { ...event, diagnostics: { ...event.diagnostics, warnings } };
      continue;
    }
    yield event;
  }
}

/**
 * The reply as the adapter made it when the request asked for no log probabilities (most requests): the same
 * promise, so that the check costs them no async level (a promise and a microtask per request).
 */
export function warnWhenNoLogprobs(
  events: Promise<AsyncIterable<StreamEvent>>,
  request: ChatRequest,
  provider: string,
): Promise<AsyncIterable<StreamEvent>> {
  return asksForLogprobs(request) ? events.then((replied) => checked(replied, provider)) : events;
}
