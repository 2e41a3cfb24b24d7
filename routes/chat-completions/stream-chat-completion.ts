/** Renders the neutral event stream as Chat Completions SSE on a hijacked reply. */
import { assertNever } from '../../src/core/assert-never.js';
import type { Diagnostics } from '../../src/core/diagnostics.js';
import type { StreamEvent } from '../../src/core/stream-event.js';
import type { SseWriter } from '../shared/sse-writer.js';
import { toOpenAiErrorBody, toOpenAiFinishReason, toOpenAiUsage } from '../shared/openai-wire.js';
import type { FinishReason } from '../../src/core/finish-reason.js';
import type { Usage } from '../../src/core/usage.js';
import { renderDiagnostics } from '../shared/render-diagnostics.js';
import type { TokenLogprob } from '../../src/core/token-logprob.js';
import { toChatChoiceLogprobs } from '../shared/logprobs-wire.js';

export type StreamOutcome = 'completed' | 'error' | 'client-closed';

export async function streamChatCompletion(
  events: AsyncIterable<StreamEvent>,
  writer: SseWriter,
  meta: { id: string; created: number; model: string; includeUsage: boolean },
): Promise<StreamOutcome> {
  const chunks = new ChatCompletionChunks(meta.id, meta.created, meta.model);
  await writer.send(chunks.role());
  for await (const event of events) {
    if (writer.isClosed) return 'client-closed';
    switch (event.type) {
      case 'response-start':
      case 'reasoning-signature':
      // Chat Completions has no field for encrypted reasoning.
      case 'reasoning-redacted':
      case 'tool-call-end':
        break;
      case 'text-delta':
        await writer.send(chunks.text(event.delta, event.logprobs));
        break;
      case 'refusal-delta':
        await writer.send(chunks.refusal(event.delta, event.logprobs));
        break;
      case 'reasoning-delta':
        await writer.send(chunks.reasoning(event.delta));
        break;
      case 'tool-call-start':
        await writer.send(chunks.toolCallStart(event.index, event.id, event.name));
        break;
      case 'tool-call-delta':
        if (event.argumentsDelta) await writer.send(chunks.toolCallArguments(event.index, event.argumentsDelta));
        break;
      case 'finish': {
        // Diagnostics ride on the very last chunk.
        const finishDiagnostics: Diagnostics | undefined = meta.includeUsage ? undefined : event.diagnostics;
        if (event.reason.refusal) await writer.send(chunks.refusal(event.reason.refusal));
        await writer.send(chunks.finish(event.reason, finishDiagnostics));
        if (meta.includeUsage) await writer.send(chunks.usage(event.usage, event.diagnostics));
        await writer.send('[DONE]');
        return 'completed';
      }
      case 'error':
        // Headers are gone: one in-band error frame, then close (no [DONE]).
        await writer.send(JSON.stringify(toOpenAiErrorBody(event.error)));
        return 'error';
      default:
        assertNever(event, 'stream event');
    }
  }
  return writer.isClosed ? 'client-closed' : 'error';
}

/**
 * Neutral events → `chat.completion.chunk` objects, following the wire contract the SDKs rely on:
 * role on the first delta; a call's first fragment carries index, id, type, name and arguments "";
 * later fragments only index and argument text; finish_reason on the last choice chunk only.
 */
export class ChatCompletionChunks {
  private readonly prefix: string;

  constructor(id: string, created: number, model: string) {
    // Every chunk shares these fields; serialise them once.
    this.prefix = `{"id":${JSON.stringify(id)},"object":"chat.completion.chunk","created":${created},"model":${JSON.stringify(model)}`;
  }

  private choice(delta: string, finishReason: string | null = null, logprobs = 'null'): string {
    return `${this.prefix},"choices":[{"index":0,"delta":${delta},"logprobs":${logprobs},"finish_reason":${finishReason === null ? 'null' : JSON.stringify(finishReason)}}]}`;
  }

  role(): string {
    return this.choice('{"role":"assistant","content":""}');
  }

  /** A text chunk; with the log probabilities of the tokens it completes, when the client asked for them. */
  text(delta: string, logprobs?: readonly TokenLogprob[]): string {
    const content = `{"content":${JSON.stringify(delta)}}`;
    return logprobs ? this.choice(content, null, JSON.stringify(toChatChoiceLogprobs(logprobs))) : this.choice(content);
  }

  reasoning(delta: string): string {
    return this.choice(`{"reasoning_content":${JSON.stringify(delta)}}`);
  }

  toolCallStart(index: number, id: string, name: string): string {
    return this.choice(
      `{"tool_calls":[{"index":${index},"id":${JSON.stringify(id)},"type":"function","function":{"name":${JSON.stringify(name)},"arguments":""}}]}`,
    );
  }

  toolCallArguments(index: number, argumentsDelta: string): string {
    return this.choice(`{"tool_calls":[{"index":${index},"function":{"arguments":${JSON.stringify(argumentsDelta)}}}]}`);
  }

  /**
   * Refusal words as OpenAI streams them (an OpenAI refusal's pieces, a Claude refusal's explanation at the
   * finish: text already streamed stays content, it was sent), with their tokens when the client asked for them.
   */
  refusal(refusal: string, logprobs?: readonly TokenLogprob[]): string {
    const delta = `{"refusal":${JSON.stringify(refusal)}}`;
    return logprobs ? this.choice(delta, null, JSON.stringify(toChatChoiceLogprobs(undefined, logprobs))) : this.choice(delta);
  }

  finish(reason: FinishReason, diagnostics: Diagnostics | undefined): string {
    return this.withDiagnostics(this.choice('{}', toOpenAiFinishReason(reason)), diagnostics);
  }

  usage(usage: Usage, diagnostics: Diagnostics | undefined): string {
    return this.withDiagnostics(`${this.prefix},"choices":[],"usage":${JSON.stringify(toOpenAiUsage(usage) ?? null)}}`, diagnostics);
  }

  private withDiagnostics(chunk: string, diagnostics: Diagnostics | undefined): string {
    const wire = renderDiagnostics(diagnostics);
    return wire ? `${chunk.slice(0, -1)},"diagnostics":${JSON.stringify(wire)}}` : chunk;
  }
}
