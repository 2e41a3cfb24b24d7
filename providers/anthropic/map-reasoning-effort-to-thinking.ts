/**
 * OpenAI-style `reasoning_effort` → Anthropic extended thinking with a token budget.
 * Anthropic rejects thinking (HTTP 400) in cases a client of another API cannot know about, so
 * those requests go without thinking and say why in a warning instead of failing:
 * - budget_tokens must be ≥ 1024 and < max_tokens;
 * - a changed temperature or top_p, or a forced tool_choice (`any`, a named tool);
 * - a tool loop whose last assistant turn does not start with its signed thinking block: "When
 *   `thinking` is enabled, a final `assistant` message must start with a thinking block (preceding the
 *   lastmost set of `tool_use` and `tool_result` blocks)". Chat Completions and Responses clients have
 *   no field to send the signature back, so their tool loops arrive that way.
 * @see https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking
 */
import type { ChatRequest, Warning } from '../../src/core/index.js';
import type { AnthropicMessagesBody } from './anthropic-messages-body.js';

// A Map: the effort is request input, and `budgets['constructor']` must not be Object's constructor.
const budgets: ReadonlyMap<string, number> = new Map([
  ['low', 1024],
  ['medium', 4096],
  ['high', 16384],
]);
const minimumBudget = 1024;

export type ThinkingPlan = {
  thinking?: { type: 'enabled'; budget_tokens: number };
  /** A larger max_tokens, when the answer's share was defaulted: the budget comes on top of it. */
  maxTokens?: number;
  warnings: Warning[];
};

/** What of the Anthropic body the thinking rules look at. */
export type ThinkingContext = Pick<AnthropicMessagesBody, 'max_tokens' | 'messages' | 'tool_choice'> & {
  /** max_tokens is the gateway's default, not the client's cap (Codex, for one, sends none). */
  maxTokensDefaulted: boolean;
};

/** The last assistant turn holds tool calls but not, first, the thinking that produced them. */
function lastToolTurnLacksThinking(messages: AnthropicMessagesBody['messages']): boolean {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index]!;
    if (message.role !== 'assistant') continue;
    if (!message.content.some((block) => block.type === 'tool_use')) return false;
    return message.content[0]?.type !== 'thinking';
  }
  return false;
}

export function mapReasoningEffortToThinking(request: ChatRequest, context: ThinkingContext, provider: string): ThinkingPlan {
  const maxTokens = context.max_tokens;
  const effort = request.reasoningEffort;
  if (effort === undefined || effort === null || effort === 'none' || effort === 'minimal') return { warnings: [] };
  const skip = (reason: string): ThinkingPlan => ({
    warnings: [
      {
        code: 'unsupported-parameter',
        message: `reasoning_effort '${effort}' was not applied on Anthropic provider '${provider}': ${reason}.`,
      },
    ],
  });
  const wanted = budgets.get(effort);
  if (wanted === undefined) return skip(`unknown effort (use low, medium or high)`);
  if ((request.temperature ?? 1) !== 1 || (request.topP ?? 1) < 0.95)
    return skip('extended thinking cannot be combined with the requested temperature/top_p');
  const forced = context.tool_choice?.type;
  if (forced === 'any' || forced === 'tool') return skip('extended thinking cannot be combined with a tool_choice that forces a tool call');
  if (lastToolTurnLacksThinking(context.messages)) {
    return skip(
      'the last assistant turn has tool calls without the signed thinking block Anthropic requires before them (Chat Completions and Responses clients cannot send it back); thinking resumes once no tool results are pending',
    );
  }
  // max_tokens counts thinking too. A defaulted one is the answer's share, so the budget goes on top
  // (squeezing it instead left a 4,096 default with one token to answer in); a client's own cap is
  // kept, and the budget shrinks to stay below it.
  if (context.maxTokensDefaulted)
    return { thinking: { type: 'enabled', budget_tokens: wanted }, maxTokens: maxTokens + wanted, warnings: [] };
  const budget = Math.min(wanted, maxTokens - 1);
  if (budget < minimumBudget) return skip(`max_tokens ${maxTokens} leaves no room for the minimum thinking budget of ${minimumBudget}`);
  return { thinking: { type: 'enabled', budget_tokens: budget }, warnings: [] };
}
