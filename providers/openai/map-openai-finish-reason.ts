/** OpenAI `finish_reason` → unified finish reason (raw kept). @see https://platform.openai.com/docs/api-reference/chat/object */
import type { FinishReason } from '../../src/core/finish-reason.js';

export function mapOpenAiFinishReason(raw: string | null | undefined): FinishReason {
  switch (raw) {
    case 'stop':
      return { unified: 'stop', raw };
    case 'length':
      return { unified: 'length', raw };
    case 'tool_calls':
    case 'function_call':
      return { unified: 'tool-calls', raw };
    case 'content_filter':
      return { unified: 'content-filter', raw };
    case null:
    case undefined:
      return { unified: 'other' };
    default:
      return { unified: 'other', raw };
  }
}
