/** Maps an Anthropic `stop_reason` to the unified finish reason, keeping the raw value. */
import type { FinishReason } from '../../src/core/index.js';

/** See https://docs.anthropic.com/en/api/handling-stop-reasons */
export function mapAnthropicStopReason(
  raw: string | null | undefined,
  stopSequence?: string | null,
  refusal?: { explanation?: string; category?: string },
): FinishReason {
  if (raw === null || raw === undefined) return { unified: 'other' };
  switch (raw) {
    case 'end_turn':
      return { unified: 'stop', raw };
    case 'stop_sequence':
      return typeof stopSequence === 'string' ? { unified: 'stop', raw, stopSequence } : { unified: 'stop', raw };
    case 'tool_use':
      return { unified: 'tool-calls', raw };
    case 'max_tokens':
    // Newer models stop here when the context window (not max_tokens) runs out: still a length stop.
    case 'model_context_window_exceeded':
      return { unified: 'length', raw };
    case 'refusal':
      return refusal?.category === undefined
        ? { unified: 'content-filter', raw, refusal: refusal?.explanation ?? '' }
        : { unified: 'content-filter', raw, refusal: refusal.explanation ?? '', refusalCategory: refusal.category };
    // pause_turn: a server tool paused a long turn; the client must resume it, so it is no normal stop.
    default:
      return { unified: 'other', raw };
  }
}
