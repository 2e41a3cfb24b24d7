/**
 * Gemini's `usageMetadata` to neutral usage. Output counts the thoughts too, as OpenAI's
 * `completion_tokens` counts reasoning; cached prompt tokens are `cachedContentTokenCount`.
 * https://ai.google.dev/api/generate-content#UsageMetadata
 */
import type { Usage } from '../../src/core/index.js';
import { readNumber, type JsonRecord } from '../../src/http/read-loose-json.js';

export function mapGeminiUsage(metadata: JsonRecord | undefined): Usage {
  if (!metadata) return {};
  const usage: Usage = { raw: metadata };
  const input = readNumber(metadata, 'promptTokenCount');
  const candidates = readNumber(metadata, 'candidatesTokenCount');
  const thoughts = readNumber(metadata, 'thoughtsTokenCount');
  const cached = readNumber(metadata, 'cachedContentTokenCount');
  const total = readNumber(metadata, 'totalTokenCount');
  if (input !== undefined) usage.inputTokens = input;
  if (candidates !== undefined || thoughts !== undefined) usage.outputTokens = (candidates ?? 0) + (thoughts ?? 0);
  if (thoughts !== undefined) usage.reasoningTokens = thoughts;
  if (cached !== undefined) usage.cachedInputTokens = cached;
  if (total !== undefined) usage.totalTokens = total;
  return usage;
}
