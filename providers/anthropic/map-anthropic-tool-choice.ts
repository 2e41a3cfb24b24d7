/** Maps the neutral tool choice (plus `parallelToolCalls`) to Anthropic's `tool_choice`. */
import { assertNever, type ToolChoice } from '../../src/core/index.js';
import type { AnthropicToolChoice } from './anthropic-messages-body.js';

/**
 * Anthropic has no `parallel_tool_calls`; its equivalent is `disable_parallel_tool_use` on the
 * tool choice (https://docs.anthropic.com/en/docs/build-with-claude/tool-use/implement-tool-use#parallel-tool-use),
 * so `parallelToolCalls: false` alone yields `{type:'auto', disable_parallel_tool_use:true}`.
 * `none` has no such flag: with no tool calls there is nothing to serialise.
 */
export function mapAnthropicToolChoice(
  choice: ToolChoice | undefined,
  parallelToolCalls: boolean | null | undefined,
): AnthropicToolChoice | undefined {
  const disableParallel = parallelToolCalls === false;
  if (!choice && !disableParallel) return undefined;
  const effective: ToolChoice = choice ?? { type: 'auto' };
  const flag = disableParallel ? { disable_parallel_tool_use: true } : {};
  switch (effective.type) {
    case 'auto':
      return { type: 'auto', ...flag };
    case 'required':
      return { type: 'any', ...flag };
    case 'tool':
      return { type: 'tool', name: effective.name, ...flag };
    case 'none':
      return { type: 'none' };
    default:
      return assertNever(effective, 'tool choice');
  }
}
