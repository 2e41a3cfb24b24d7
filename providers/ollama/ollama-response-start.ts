/** The `response-start` event of an Ollama reply, streamed or whole. */
import { randomHex, type StreamEvent, type Warning } from '../../src/core/index.js';

/** Ollama gives its replies no id, so one is minted; the model is the one the upstream says answered, when it says. */
export function ollamaResponseStart(echoedModel: unknown, requestedModel: string, warnings: Warning[]): StreamEvent {
  return {
    type: 'response-start',
    id: `ollama-${randomHex(24)}`,
    model: typeof echoedModel === 'string' && echoedModel !== '' ? echoedModel : requestedModel,
    warnings,
  };
}
