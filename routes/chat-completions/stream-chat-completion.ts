/** Renders the neutral event stream as Chat Completions SSE on a hijacked reply. */
import { assertNever } from '../../src/core/assert-never.js';
import type { Diagnostics } from '../../src/core/diagnostics.js';
import type { StreamEvent } from '../../src/core/stream-event.js';
import type { SseWriter } from '../shared/sse-writer.js';
import { toOpenAiErrorBody } from '../shared/openai-wire.js';
import { ChatCompletionChunks } from './chat-completion-chunks.js';

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
      case 'tool-call-end':
        break;
      case 'text-delta':
        await writer.send(chunks.text(event.delta));
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
