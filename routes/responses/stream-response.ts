/**
 * Renders the neutral event stream as Responses SSE on a hijacked reply: `event: <type>` plus
 * `data: <json>` frames, ending with `response.completed`, `response.incomplete` or
 * `response.failed`. No `data: [DONE]`: the Responses API does not send one.
 */
import { gatewayError, toGatewayError } from '../../src/core/gateway-error.js';
import type { StreamEvent } from '../../src/core/stream-event.js';
import type { SseWriter } from '../shared/sse-writer.js';
import type { ResponseAssembler } from './response-assembler.js';
import type { WireStreamEvent } from './responses-wire.js';

export type StreamOutcome = 'completed' | 'error' | 'client-closed';

/** Where the events go: SSE frames on HTTP, text frames on a WebSocket. */
export type EventWriter = Pick<SseWriter, 'isClosed' | 'send'>;

export async function sendAll(writer: EventWriter, events: WireStreamEvent[]): Promise<void> {
  for (const event of events) await writer.send(JSON.stringify(event), event.type);
}

export async function streamResponse(
  events: AsyncIterable<StreamEvent>,
  writer: EventWriter,
  assembler: ResponseAssembler,
): Promise<StreamOutcome> {
  await sendAll(writer, assembler.start());
  try {
    for await (const event of events) {
      if (writer.isClosed) return 'client-closed';
      await sendAll(writer, assembler.push(event));
      const outcome = assembler.outcome;
      if (outcome) return outcome.type === 'error' ? 'error' : 'completed';
    }
  } catch (error) {
    if (writer.isClosed) return 'client-closed';
    // Headers are gone: a failure thrown mid-stream still ends the stream the way clients expect.
    await sendAll(writer, assembler.push({ type: 'error', error: toGatewayError(error) }));
    return 'error';
  }
  if (writer.isClosed) return 'client-closed';
  const error = gatewayError('upstream_incomplete', { message: 'The event stream ended without finishing.' });
  await sendAll(writer, assembler.push({ type: 'error', error }));
  return 'error';
}
