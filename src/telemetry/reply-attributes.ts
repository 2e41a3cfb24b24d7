/** The GenAI attributes of a finished reply (usage, finish reason, response id and model), for either span. */
import type { Attributes } from '@opentelemetry/api';
import type { FinishReason } from '../core/finish-reason.js';
import type { Usage } from '../core/usage.js';
import { gateway, genAi } from './gen-ai-attributes.js';

/** OpenAI's spelling (`tool_calls`, `content_filter`), which the GenAI examples use. */
export function finishReasonValue(reason: FinishReason): string {
  return reason.unified.replace('-', '_');
}

export function usageAttributes(usage: Usage): Attributes {
  const attributes: Attributes = {};
  if (usage.inputTokens !== undefined) attributes[genAi.usageInputTokens] = usage.inputTokens;
  if (usage.outputTokens !== undefined) attributes[genAi.usageOutputTokens] = usage.outputTokens;
  if (usage.cachedInputTokens !== undefined) attributes[genAi.usageCacheReadInputTokens] = usage.cachedInputTokens;
  if (usage.reasoningTokens !== undefined) attributes[genAi.usageReasoningOutputTokens] = usage.reasoningTokens;
  if (usage.costUsd !== undefined) attributes[gateway.costUsd] = usage.costUsd;
  return attributes;
}

/** The gateway's estimate of a reply's usage (Usage.estimated), under names that say so. */
export function estimatedUsageAttributes(usage: Usage): Attributes {
  const attributes: Attributes = {};
  if (usage.inputTokens !== undefined) attributes[gateway.estimatedInputTokens] = usage.inputTokens;
  if (usage.outputTokens !== undefined) attributes[gateway.estimatedOutputTokens] = usage.outputTokens;
  if (usage.costUsd !== undefined) attributes[gateway.estimatedCostUsd] = usage.costUsd;
  return attributes;
}
