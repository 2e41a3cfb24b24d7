/**
 * Claude's thinking on Bedrock. Converse has no thinking switch of its own: Claude's goes in
 * `additionalModelRequestFields.thinking`, as in Anthropic's body
 * (https://docs.aws.amazon.com/bedrock/latest/userguide/claude-messages-extended-thinking.html), and the effort
 * in Converse's `outputConfig.effort`. The same rules as Anthropic's decide the form and when thinking
 * cannot go (providers/anthropic/map-reasoning-effort-to-thinking.ts); reasoning blocks already travel both
 * ways as `reasoningContent`. Other Bedrock models get no thinking switch (build-converse-request.ts warns).
 */
import type { ConverseCommandInput, Message as ConverseMessage } from '@aws-sdk/client-bedrock-runtime';
import type { ChatRequest } from '../../src/core/chat-request.js';
import type { Warning } from '../../src/core/warning.js';
import { fallbackMaxTokens } from '../anthropic/build-anthropic-request-body.js';
import { mapReasoningEffortToThinking } from '../anthropic/map-reasoning-effort-to-thinking.js';

/** Bedrock's Claude ids: `anthropic.claude-…`, with a cross-region prefix (`us.`, `eu.`, `global.`) or not. */
export function isBedrockClaude(model: string): boolean {
  return model.includes('anthropic.claude');
}

/** The last assistant turn holds tool uses but does not begin with their signed (or redacted) reasoning. */
function toolTurnLacksThinking(messages: readonly ConverseMessage[]): boolean {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index]!;
    if (message.role !== 'assistant') continue;
    const content = message.content ?? [];
    if (!content.some((block) => block.toolUse !== undefined)) return false;
    const first = content[0]?.reasoningContent;
    return first?.reasoningText?.signature === undefined && first?.redactedContent === undefined;
  }
  return false;
}

/**
 * A reasoning_effort that turns thinking on. A Messages client's adaptive thinking names no depth, so a model
 * without a thinking switch is sent nothing for it, as other providers do.
 */
export function asksForReasoning(request: ChatRequest): boolean {
  const effort = request.reasoningEffort;
  return effort !== undefined && effort !== null && effort !== 'none' && effort !== 'minimal';
}

/** Sets Claude's thinking and effort on the Converse input (its max tokens too, when a budget needs room). */
export function applyClaudeThinking(
  request: ChatRequest,
  input: ConverseCommandInput,
  options: { changesSampling: boolean; warnings: Warning[] },
): void {
  if (!asksForReasoning(request) && request.claudeThinking === undefined) return;
  const given = input.inferenceConfig?.maxTokens;
  const choice = input.toolConfig?.toolChoice;
  // Beside Anthropic's own tools the choice goes in Claude's form (build-converse-request.ts).
  const claudeChoice = (input.additionalModelRequestFields as { tool_choice?: { type?: string } } | undefined)?.tool_choice?.type;
  const plan = mapReasoningEffortToThinking(
    request,
    {
      maxTokens: given ?? fallbackMaxTokens,
      maxTokensDefaulted: given === undefined,
      forcesToolCall: choice?.any !== undefined || choice?.tool !== undefined || claudeChoice === 'any' || claudeChoice === 'tool',
      changesSampling: options.changesSampling,
      lastToolTurnLacksThinking: toolTurnLacksThinking(input.messages ?? []),
    },
    request.model.provider,
  );
  options.warnings.push(...plan.warnings);
  if (plan.thinking) input.additionalModelRequestFields = { ...(input.additionalModelRequestFields as object), thinking: plan.thinking };
  if (plan.effort) input.outputConfig = { ...input.outputConfig, effort: plan.effort };
  if (plan.maxTokens !== undefined) input.inferenceConfig = { ...input.inferenceConfig, maxTokens: plan.maxTokens };
}
