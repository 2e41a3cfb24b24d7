/** Normalises Anthropic usage (message_start + message_delta, merged) while keeping the raw object. */
import type { Usage } from '../../src/core/index.js';
import { readNumber, type JsonRecord } from '../../src/http/read-loose-json.js';

/**
 * Anthropic counts cache writes and cache reads apart from `input_tokens`
 * (https://docs.anthropic.com/en/docs/build-with-claude/prompt-caching#tracking-cache-performance),
 * so the prompt size is their sum; cache reads are also reported as cached input.
 */
export function mapAnthropicUsage(raw: JsonRecord | undefined): Usage {
  if (!raw) return {};
  const input = readNumber(raw, 'input_tokens');
  const cacheCreation = readNumber(raw, 'cache_creation_input_tokens');
  const cacheRead = readNumber(raw, 'cache_read_input_tokens');
  const output = readNumber(raw, 'output_tokens');
  const usage: Usage = { raw };
  if (input !== undefined || cacheCreation !== undefined || cacheRead !== undefined) {
    usage.inputTokens = (input ?? 0) + (cacheCreation ?? 0) + (cacheRead ?? 0);
  }
  if (cacheRead !== undefined) usage.cachedInputTokens = cacheRead;
  if (cacheCreation !== undefined) usage.cacheWriteInputTokens = cacheCreation;
  if (output !== undefined) usage.outputTokens = output;
  if (usage.inputTokens !== undefined && output !== undefined) usage.totalTokens = usage.inputTokens + output;
  return usage;
}

/**
 * Folds a later usage object into an earlier one. `message_delta` usage is cumulative and may
 * repeat keys from `message_start` (sometimes as null), so only real values replace earlier ones.
 */
export function mergeAnthropicUsage(earlier: JsonRecord | undefined, later: JsonRecord): JsonRecord {
  const merged: JsonRecord = { ...earlier };
  for (const [key, value] of Object.entries(later)) if (value !== null && value !== undefined) merged[key] = value;
  return merged;
}
