/** Ollama's `done_reason` → the unified finish reason, keeping the raw value. */
import type { FinishReason } from '../../src/core/index.js';

/**
 * Ollama reports `stop` even when the reply was tool calls, so `hadToolCalls` decides between the two.
 * `load`/`unload` come from empty-prompt requests that only load or unload a model.
 */
export function mapOllamaDoneReason(doneReason: unknown, hadToolCalls: boolean): FinishReason {
  const raw = typeof doneReason === 'string' ? doneReason : undefined;
  switch (raw) {
    // Older servers, from before `done_reason` existed, only said `done: true`: a normal end.
    case undefined:
      return { unified: hadToolCalls ? 'tool-calls' : 'stop' };
    case 'stop':
      return { unified: hadToolCalls ? 'tool-calls' : 'stop', raw };
    case 'length':
      return { unified: 'length', raw };
    default:
      return { unified: 'other', raw };
  }
}
