/** Folds the neutral event stream into one Response object (the non-streaming reply), through the same assembler as SSE. */
import { foldEvents, type StreamEvent } from '../../src/core/stream-event.js';
import type { AssemblerOutcome, ResponseAssembler } from './response-assembler.js';

export async function foldResponse(events: AsyncIterable<StreamEvent>, assembler: ResponseAssembler): Promise<AssemblerOutcome> {
  const outcome = await foldEvents(events, (event) => {
    assembler.push(event);
    return assembler.outcome;
  });
  if (outcome === undefined) throw new Error('event stream ended without finish or error');
  return outcome;
}
