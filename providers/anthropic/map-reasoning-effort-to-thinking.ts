/**
 * OpenAI-style `reasoning_effort` → Anthropic extended thinking with a token budget.
 * Anthropic requires budget_tokens ≥ 1024 and < max_tokens, and thinking is incompatible with a
 * changed temperature or top_p, so those cases keep sampling as asked and warn instead.
 * @see https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking
 */
import type { ChatRequest, Warning } from '../../src/core/index.js';

const budgets: Record<string, number> = { low: 1024, medium: 4096, high: 16384 };
const minimumBudget = 1024;

export type ThinkingPlan = { thinking?: { type: 'enabled'; budget_tokens: number }; warnings: Warning[] };

export function mapReasoningEffortToThinking(request: ChatRequest, maxTokens: number, provider: string): ThinkingPlan {
  const effort = request.reasoningEffort;
  if (effort === undefined || effort === null || effort === 'none' || effort === 'minimal') return { warnings: [] };
  const skip = (reason: string): ThinkingPlan => ({
    warnings: [{ code: 'unsupported-parameter', message: `reasoning_effort '${effort}' was not applied on Anthropic provider '${provider}': ${reason}.` }],
  });
  const wanted = budgets[effort];
  if (wanted === undefined) return skip(`unknown effort (use low, medium or high)`);
  if ((request.temperature ?? 1) !== 1 || (request.topP ?? 1) < 0.95) return skip('extended thinking cannot be combined with the requested temperature/top_p');
  // The budget must stay below max_tokens; shrink it rather than invent a larger max_tokens.
  const budget = Math.min(wanted, maxTokens - 1);
  if (budget < minimumBudget) return skip(`max_tokens ${maxTokens} leaves no room for the minimum thinking budget of ${minimumBudget}`);
  return { thinking: { type: 'enabled', budget_tokens: budget }, warnings: [] };
}
