/**
 * Gemini's `finishReason` to the unified reason, raw value kept. A turn that made function calls ends
 * in `STOP`: it becomes `tool-calls`, as clients expect.
 * https://ai.google.dev/api/generate-content#FinishReason
 */
import type { FinishReason } from '../../src/core/index.js';

const contentFilterReasons: ReadonlySet<string> = new Set([
  'SAFETY',
  'RECITATION',
  'BLOCKLIST',
  'PROHIBITED_CONTENT',
  'SPII',
  'IMAGE_SAFETY',
  'IMAGE_PROHIBITED_CONTENT',
  'IMAGE_RECITATION',
]);

export function mapGeminiFinishReason(raw: string | undefined, madeCalls: boolean): FinishReason {
  if (raw === undefined) return { unified: madeCalls ? 'tool-calls' : 'stop' };
  if (raw === 'STOP') return { unified: madeCalls ? 'tool-calls' : 'stop', raw };
  if (raw === 'MAX_TOKENS') return { unified: 'length', raw };
  if (contentFilterReasons.has(raw)) return { unified: 'content-filter', raw };
  if (raw === 'MALFORMED_FUNCTION_CALL') return { unified: 'error', raw };
  return { unified: 'other', raw };
}
