/**
 * What Claude's Messages API refuses in a conversation before the model runs, in its own words, for the fakes
 * that stand for it (Anthropic's API, and Vertex AI's rawPredict in front of it):
 * - an empty text block, "messages: text content blocks must be non-empty" (aliasrobotics/cai#182), and one of
 *   only whitespace, "messages: text content blocks must contain non-whitespace text" (both counted in
 *   aws-samples/generative-ai-use-cases#1685);
 * - a tool use whose result is not in the next message, "messages.N: `tool_use` ids were found without
 *   `tool_result` blocks immediately after: ID. Each `tool_use` block must have a corresponding `tool_result`
 *   block in the next message." (anthropics/claude-code#2697, #12526);
 * - a result whose tool use is not in the previous message, "messages.N.content.M: unexpected `tool_use_id` found
 *   in `tool_result` blocks: ID. Each `tool_result` block must have a corresponding `tool_use` block in the
 *   previous message." (anthropics/claude-code#13460, continuedev/continue#4751);
 * - with thinking on (enabled or adaptive), a last assistant turn with tool uses that does not start with a
 *   thinking or redacted_thinking block: "messages.N.content.0.type: Expected `thinking` or `redacted_thinking`,
 *   but found `tool_use`. When `thinking` is enabled, a final `assistant` message must start with a thinking
 *   block (preceeding the lastmost set of `tool_use` and `tool_result` blocks). …" (Anthropic's and Vertex AI's
 *   400, quoted in anomalyco/opencode#3077, Kilo-Org/kilocode#5219, deepset-ai/haystack-core-integrations#2146);
 *   https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking#preserving-thinking-blocks asks for
 *   the last assistant turn's thinking blocks, redacted ones included, back unchanged in a tool loop;
 * - more than four cache breakpoints, "A maximum of 4 blocks with cache_control may be provided. Found 5."
 *   (tghamm/Anthropic.SDK#50; https://docs.anthropic.com/en/docs/build-with-claude/prompt-caching: up to 4).
 */
type Block = { type?: unknown; text?: unknown; id?: unknown; tool_use_id?: unknown; content?: unknown; cache_control?: unknown };
type Turn = { role?: unknown; content?: unknown };
type Body = { system?: unknown; tools?: unknown; messages?: unknown; thinking?: { type?: unknown } };

function blocksOf(turn: Turn | undefined): Block[] {
  return Array.isArray(turn?.content) ? (turn.content as Block[]) : [];
}

function textRefusal(blocks: readonly Block[]): string | undefined {
  for (const block of blocks) {
    if (block.type === 'text' && block.text === '') return 'messages: text content blocks must be non-empty';
    if (block.type === 'text' && typeof block.text === 'string' && block.text.trim() === '')
      return 'messages: text content blocks must contain non-whitespace text';
    if (block.type === 'tool_result' && Array.isArray(block.content)) {
      const inner = textRefusal(block.content as Block[]);
      if (inner) return inner;
    }
  }
  return undefined;
}

function pairingRefusal(turns: readonly Turn[]): string | undefined {
  for (const [position, turn] of turns.entries()) {
    const blocks = blocksOf(turn);
    if (turn.role === 'assistant') {
      const uses = blocks.filter((block) => block.type === 'tool_use').map((block) => String(block.id));
      const answered = new Set(
        blocksOf(turns[position + 1]).flatMap((block) => (block.type === 'tool_result' ? [String(block.tool_use_id)] : [])),
      );
      const missing = uses.filter((id) => !answered.has(id));
      // The last turn may be an assistant's tool use the model is to continue from (prefill): nothing follows yet.
      if (missing.length > 0 && position < turns.length - 1)
        return `messages.${position}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`;
      continue;
    }
    const previous = turns[position - 1];
    const used = new Set(
      (previous?.role === 'assistant' ? blocksOf(previous) : []).flatMap((block) => (block.type === 'tool_use' ? [String(block.id)] : [])),
    );
    for (const [index, block] of blocks.entries())
      if (block.type === 'tool_result' && !used.has(String(block.tool_use_id)))
        return `messages.${position}.content.${index}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${String(block.tool_use_id)}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`;
  }
  return undefined;
}

function thinkingRefusal(turns: readonly Turn[], thinking: Body['thinking']): string | undefined {
  if (thinking?.type !== 'enabled' && thinking?.type !== 'adaptive') return undefined;
  const position = turns.findLastIndex((turn) => turn.role === 'assistant');
  const blocks = blocksOf(turns[position]);
  if (!blocks.some((block) => block.type === 'tool_use')) return undefined;
  const first = String(blocks[0]?.type);
  if (first === 'thinking' || first === 'redacted_thinking') return undefined;
  return `messages.${position}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${first}\`. When \`thinking\` is enabled, a final \`assistant\` message must start with a thinking block (preceeding the lastmost set of \`tool_use\` and \`tool_result\` blocks). We recommend you include thinking blocks from previous turns. To avoid this requirement, disable \`thinking\`. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking`;
}

function countBreakpoints(blocks: unknown): number {
  if (!Array.isArray(blocks)) return 0;
  return (blocks as Block[]).reduce(
    (count, block) => count + (block.cache_control ? 1 : 0) + (block.type === 'tool_result' ? countBreakpoints(block.content) : 0),
    0,
  );
}

export function anthropicMessagesRefusal(body: unknown): string | undefined {
  const { system, tools, messages, thinking } = (body ?? {}) as Body;
  const turns = Array.isArray(messages) ? (messages as Turn[]) : [];
  const refused = textRefusal(turns.flatMap((turn) => blocksOf(turn))) ?? pairingRefusal(turns) ?? thinkingRefusal(turns, thinking);
  if (refused) return refused;
  const breakpoints =
    countBreakpoints(system) + countBreakpoints(tools) + turns.reduce((count, turn) => count + countBreakpoints(turn.content), 0);
  if (breakpoints > 4) return `A maximum of 4 blocks with cache_control may be provided. Found ${breakpoints}.`;
  return undefined;
}
