/** Folds the neutral event stream into one Response object (the non-streaming reply), through the same assembler as SSE. */
import type { StreamEvent } from '../../src/core/stream-event.js';
import type { AssemblerOutcome, ResponseAssembler } from './response-assembler.js';

export async function foldResponse(events: AsyncIterable<StreamEvent>, assembler: ResponseAssembler): Promise<AssemblerOutcome> {
  for await (const event of events) {
    assembler.push(event);
    if (assembler.outcome) return assembler.outcome;
  }
  throw new Error('event stream ended without finish or error');
}
