/** Renders the neutral event stream as Anthropic Messages SSE (`event: <type>` + `data: <json>`) on a hijacked reply. */
import { toGatewayError } from '../../src/core/gateway-error.js';
import type { StreamEvent } from '../../src/core/stream-event.js';
import type { SseWriter } from '../shared/sse-writer.js';
import { AnthropicStreamEvents, type AnthropicStreamEvent } from './anthropic-stream-events.js';

export type StreamOutcome = 'completed' | 'error' | 'client-closed';

async function write(writer: SseWriter, events: AnthropicStreamEvent[]): Promise<void> {
  for (const event of events) await writer.send(JSON.stringify(event), event.type);
}

export async function streamMessage(
  events: AsyncIterable<StreamEvent>,
  writer: SseWriter,
  meta: { id: string; model: string },
): Promise<StreamOutcome> {
  const renderer = new AnthropicStreamEvents(meta);
  await write(writer, renderer.start());
  try {
    for await (const event of events) {
      if (writer.isClosed) return 'client-closed';
      await write(writer, renderer.push(event));
      // Headers are gone after the first frame: a failure is one in-band `error` event, then close.
      if (event.type === 'error') return 'error';
      if (event.type === 'finish') return 'completed';
    }
  } catch (error) {
    // A bug or an unexpected throw below us: the client still gets a well-formed error event.
    await write(writer, renderer.push({ type: 'error', error: toGatewayError(error) }));
    return 'error';
  }
  return writer.isClosed ? 'client-closed' : 'error';
}
