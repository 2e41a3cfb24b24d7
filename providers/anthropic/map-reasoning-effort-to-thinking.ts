/**
 * The client's reasoning request → Claude's thinking switch: OpenAI-style `reasoning_effort`, and a Messages
 * client's adaptive thinking and effort (`claudeThinking`). Models with adaptive thinking (Claude 4.6 and
 * later, claude-version-rules.ts) get `thinking: {type: "adaptive"}` with the effort in
 * `output_config.effort`; the budget form is refused by the newest of them. Older models get extended
 * thinking with a token budget.
 * Anthropic rejects thinking (HTTP 400) in cases a client of another API cannot know about, so
 * those requests go without thinking and say why in a warning instead of failing:
 * - budget_tokens must be ≥ 1024 and < max_tokens;
 * - a changed temperature or top_p, or a forced tool_choice (`any`, a named tool): adaptive thinking too, on
 *   every model ("tool_choice options that force tool use return an error while thinking is on",
 *   https://platform.claude.com/docs/en/build-with-claude/thinking-tool-workflows; Claude Opus 5.5 and
 *   Fable 5.1 refuse forced tool use even without a thinking field, and that 400 is passed on);
 * - a tool loop whose last assistant turn does not start with its signed (or redacted) thinking block: "When
 *   `thinking` is enabled, a final `assistant` message must start with a thinking block (preceding the
 *   lastmost set of `tool_use` and `tool_result` blocks)". Chat Completions and Responses clients have
 *   no field to send the signature back, so their tool loops arrive that way.
 * @see https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking
 */
import type { ChatRequest, Warning } from '../../src/core/index.js';
import type { AnthropicMessagesBody } from './anthropic-messages-body.js';
import { takesAdaptiveThinking } from './claude-version-rules.js';

// A Map: the effort is request input, and `budgets['constructor']` must not be Object's constructor.
const budgets: ReadonlyMap<string, number> = new Map([
  ['low', 1024],
  ['medium', 4096],
  ['high', 16384],
]);
const minimumBudget = 1024;

/** The efforts both reasoning_effort and Claude's `output_config.effort` name. */
const adaptiveEfforts: ReadonlySet<string> = new Set(['low', 'medium', 'high', 'xhigh']);

/** Claude's default effort, which adaptive thinking runs at when none is given. */
const defaultEffort = 'high';

export type ThinkingPlan = {
  thinking?: { type: 'enabled'; budget_tokens: number } | { type: 'adaptive' };
  /** `output_config.effort`. */
  effort?: string;
  /** A larger max_tokens, when the answer's share was defaulted: the budget comes on top of it. */
  maxTokens?: number;
  warnings: Warning[];
};

/** What of the request, as its upstream will get it, the thinking rules look at (Anthropic's body, Converse's input). */
export type ThinkingContext = {
  /** max_tokens as it will be sent. */
  maxTokens: number;
  /** max_tokens is the gateway's default, not the client's cap (Codex, for one, sends none). */
  maxTokensDefaulted: boolean;
  /** tool_choice forces a call (`any` or a named tool). */
  forcesToolCall: boolean;
  /** temperature, top_p or top_k as sent differ from Claude's defaults (claude-sampling.ts). */
  changesSampling: boolean;
  /** The last assistant turn holds tool calls but not, first, the signed thinking that produced them. */
  lastToolTurnLacksThinking: boolean;
};

/** The last assistant turn of an Anthropic body holds tool calls but not, first, the thinking that produced them. */
export function anthropicToolTurnLacksThinking(messages: AnthropicMessagesBody['messages']): boolean {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index]!;
    if (message.role !== 'assistant') continue;
    if (!message.content.some((block) => block.type === 'tool_use')) return false;
    const first = message.content[0]?.type;
    return first !== 'thinking' && first !== 'redacted_thinking';
  }
  return false;
}

/** Why thinking cannot go with this request, if it cannot. */
function thinkingConflict(context: ThinkingContext): string | undefined {
  if (context.changesSampling) return 'extended thinking cannot be combined with the requested temperature/top_p/top_k';
  if (context.forcesToolCall) return 'thinking (adaptive or extended) cannot be combined with a tool_choice that forces a tool call';
  if (context.lastToolTurnLacksThinking)
    return 'the last assistant turn has tool calls without the signed thinking block Anthropic requires before them (Chat Completions and Responses clients cannot send it back); thinking resumes once no tool results are pending';
  return undefined;
}

export function mapReasoningEffortToThinking(request: ChatRequest, context: ThinkingContext, provider: string): ThinkingPlan {
  const claude = request.claudeThinking;
  // The client's own effort for Claude goes as given, with or without thinking (Claude checks its levels).
  const clientEffort = claude?.effort;
  const effort = request.reasoningEffort;
  const wantsEffort = effort !== undefined && effort !== null && effort !== 'none' && effort !== 'minimal';
  if (!claude?.adaptive && !wantsEffort) return { ...(clientEffort ? { effort: clientEffort } : {}), warnings: [] };
  const asked = claude?.adaptive ? 'adaptive thinking' : `reasoning_effort '${effort}'`;
  const skip = (reason: string): ThinkingPlan => ({
    ...(clientEffort ? { effort: clientEffort } : {}),
    warnings: [{ code: 'unsupported-parameter', message: `${asked} was not applied on provider '${provider}': ${reason}.` }],
  });
  const level = claude?.adaptive ? (clientEffort ?? defaultEffort) : (effort as string);
  if (takesAdaptiveThinking(request.model.model)) {
    if (!claude?.adaptive && !adaptiveEfforts.has(level)) return skip('unknown effort (use low, medium, high or xhigh)');
    const conflict = thinkingConflict(context);
    if (conflict) return skip(conflict);
    return { thinking: { type: 'adaptive' }, effort: clientEffort ?? level, warnings: [] };
  }
  // A model before adaptive thinking: adaptive's levels above high take high's budget.
  const wanted = budgets.get(level) ?? (claude?.adaptive ? budgets.get(defaultEffort) : undefined);
  if (wanted === undefined) return skip(`unknown effort (use low, medium or high)`);
  const conflict = thinkingConflict(context);
  if (conflict) return skip(conflict);
  const plan = (thinking: ThinkingPlan['thinking'], maxTokens?: number): ThinkingPlan => ({
    thinking,
    ...(maxTokens !== undefined ? { maxTokens } : {}),
    ...(clientEffort ? { effort: clientEffort } : {}),
    warnings: [],
  });
  // max_tokens counts thinking too. A defaulted one is the answer's share, so the budget goes on top
  // (squeezing it instead left a 4,096 default with one token to answer in); a client's own cap is
  // kept, and the budget shrinks to stay below it.
  const maxTokens = context.maxTokens;
  if (context.maxTokensDefaulted) return plan({ type: 'enabled', budget_tokens: wanted }, maxTokens + wanted);
  const budget = Math.min(wanted, maxTokens - 1);
  if (budget < minimumBudget) return skip(`max_tokens ${maxTokens} leaves no room for the minimum thinking budget of ${minimumBudget}`);
  return plan({ type: 'enabled', budget_tokens: budget });
}
