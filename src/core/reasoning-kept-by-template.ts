/**
 * Which earlier assistant turns keep their reasoning in the model's own chat template, by tool-format
 * family. Models that think between tool calls lose their plan mid-task when a turn's reasoning is not
 * sent back; the templates themselves drop what they do not keep, so only the turns they keep are sent
 * (nothing more to bloat the request). Which field carries it is each adapter's business.
 */
import type { AssistantMessage, Message } from './message.js';

/**
 * - `after-last-query`: the turns after the last user message that is not a tool result (Qwen3's and
 *   Qwen3.5's `last_query_index`, which skips user turns wrapped in `<tool_response>`).
 * - `after-last-user`: the turns after the last user message (GLM-4.5/4.6/4.7's and MiniMax-M2's
 *   `last_user_index`, DeepSeek V3.2's encoder with `last_user_idx`).
 * - `after-last-answer`: the turns after the last assistant message without calls (Kimi K2 Thinking's
 *   `last_non_tool_call_assistant_msg`; gpt-oss's template keeps a call turn's `thinking` unless a final
 *   message follows, and vLLM's `auto_drop_analysis_messages` drops analysis before the last final one).
 */
type KeptTurns = 'after-last-query' | 'after-last-user' | 'after-last-answer' | 'every-turn';

// Sources: llama.cpp models/templates/ (glm_4_5.jinja, GLM-4.6.jinja, unsloth-MiniMax-M2.jinja,
// moonshotai-Kimi-K2-Thinking.jinja, DeepSeek-V3.2.jinja), Qwen3's tokenizer_config.json chat_template,
// openai/gpt-oss chat_template.jinja and vLLM harmony_utils.py. DeepSeek V3.1's template shows no
// earlier reasoning (it writes `</think>` and drops what precedes it), so it is not listed.
const keptTurnsByFamily: ReadonlyMap<string, KeptTurns> = new Map([
  ['hermes', 'after-last-query'],
  ['qwen3-coder', 'after-last-query'],
  ['glm', 'after-last-user'],
  ['minimax-m2', 'after-last-user'],
  ['deepseek-v32', 'after-last-user'],
  ['harmony', 'after-last-answer'],
  ['kimi-k2', 'after-last-answer'],
]);

/** The chat-template kwargs of a request (`chat_template_kwargs`), which can tell a template to keep more. */
export type TemplateKwargs = Readonly<Record<string, unknown>> | undefined;

/** The request's chat-template kwargs, when the client sent an object. */
export function templateKwargsOf(request: { openaiExtras?: Readonly<Record<string, unknown>> | undefined }): TemplateKwargs {
  const kwargs = request.openaiExtras?.['chat_template_kwargs'];
  return typeof kwargs === 'object' && kwargs !== null ? (kwargs as Record<string, unknown>) : undefined;
}

/**
 * The turns the family's template keeps, given the request's template kwargs: GLM-4.7's and GLM-5's keep
 * every turn's with `clear_thinking: false`, Qwen3.6's and Kimi K2.6's with `preserve_thinking: true`.
 */
function keptTurns(family: string, kwargs: TemplateKwargs): KeptTurns | undefined {
  const kept = keptTurnsByFamily.get(family);
  if (kept === undefined) return undefined;
  return kwargs?.['clear_thinking'] === false || kwargs?.['preserve_thinking'] === true ? 'every-turn' : kept;
}

/**
 * The index after which the family's template keeps assistant turns' reasoning, in `messages`
 * (tool results as `tool` messages, as the server's template sees them); undefined: it keeps none.
 */
export function reasoningKeptAfter(messages: readonly Message[], family: string, kwargs?: TemplateKwargs): number | undefined {
  const kept = keptTurns(family, kwargs);
  if (kept === undefined) return undefined;
  if (kept === 'every-turn') return -1;
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index]!;
    // Among neutral messages results are `tool` messages, so the last query is the last user message.
    if (kept === 'after-last-answer' ? isAnswer(message) : message.role === 'user') return index;
  }
  return -1;
}

function isAnswer(message: Message): boolean {
  return message.role === 'assistant' && !message.content.some((part) => part.type === 'tool-call');
}

/**
 * For the prompted lane's text history, where results become user turns: the messages with the reasoning
 * the family's template drops taken out (the turns up to the index reasoningKeptAfter names), for the lane
 * to replay all that is left; undefined when the template would keep none of it. A template keeping the
 * turns after the last user message keeps none there (the results' user turn follows them); Qwen3's still
 * keeps the turns after the last real query, as it skips `<tool_response>` turns. Turns without reasoning
 * are not copied.
 */
export function withReasoningTheTemplateKeeps(messages: Message[], family: string, kwargs?: TemplateKwargs): Message[] | undefined {
  if (keptTurns(family, kwargs) === 'after-last-user') return undefined;
  const after = reasoningKeptAfter(messages, family, kwargs);
  if (after === undefined) return undefined;
  // Most histories carry no reasoning to drop: the same array then, nothing copied on every prompted request.
  for (let index = 0; index <= after; index++) {
    if (hasReasoning(messages[index]!)) {
      return messages.map((message, at) => (at <= after && hasReasoning(message) ? withoutReasoning(message) : message));
    }
  }
  return messages;
}

function hasReasoning(message: Message): message is AssistantMessage {
  return message.role === 'assistant' && message.content.some((part) => part.type === 'reasoning');
}

function withoutReasoning(message: AssistantMessage): AssistantMessage {
  return { role: 'assistant', content: message.content.filter((part) => part.type !== 'reasoning') };
}
