/** DeepSeek V4's prompt encoder, ported to TypeScript for the fidelity measure: V4 ships no Jinja template. */
// A port of the parts of `encoding/encoding_dsv4.py` (deepseek-ai/DeepSeek-V4-Flash, MIT licence; vLLM's
// copy `vllm/tokenizers/deepseek_v4_encoding.py`) that a chat request reaches: `encode_messages` with
// `merge_tool_messages`, `sort_tool_results_by_call_order`, `_drop_thinking_messages`, `render_message` for
// system, user and assistant turns (tools, DSML calls, `<tool_result>` blocks, thinking, the transition
// tokens) and `render_tools`; and the way vLLM's `deepseek_v4` tokenizer calls it (`apply_chat_template`:
// the request's tools on the leading system message or an inserted one, thinking on unless the kwargs say
// otherwise, `drop_thinking` from the kwargs, default true). Left out, as no chat request reaches them:
// developer and latest_reminder messages, tasks, `wo_eos`, response formats, the "max" reasoning effort.
// The port is checked against the encoder's gold prompt in
// test/tool-formats/deepseek-v4/deepseek-v4-encoding-port.test.ts.
// @see https://huggingface.co/deepseek-ai/DeepSeek-V4-Flash/blob/main/encoding/encoding_dsv4.py
// @see https://github.com/vllm-project/vllm/blob/main/vllm/tokenizers/deepseek_v4.py

type EncoderCall = { id?: string; function: { name: string; arguments: unknown } };
type ContentBlock = { type: 'text'; text: string } | { type: 'tool_result'; tool_use_id: string; content: string };
/** A message as the encoder reads it: OpenAI's shape, plus `tools` on a system message and `reasoning` on an assistant one. */
export type EncoderMessage = {
  role: string;
  content?: unknown;
  tools?: { function: unknown }[];
  tool_calls?: EncoderCall[];
  tool_call_id?: string;
  reasoning?: string;
  content_blocks?: ContentBlock[];
};

const bos = '<｜begin▁of▁sentence｜>';
const eos = '<｜end▁of▁sentence｜>';
const thinkingStart = '<think>';
const thinkingEnd = '</think>';
const dsml = '｜DSML｜';
const userToken = '<｜User｜>';
const assistantToken = '<｜Assistant｜>';

/** TOOLS_TEMPLATE with its placeholders filled. */
function renderTools(tools: readonly { function: unknown }[]): string {
  return [
    '## Tools',
    '',
    `You have access to a set of tools to help answer the user's question. You can invoke tools by writing a "<${dsml}tool_calls>" block like the following:`,
    '',
    `<${dsml}tool_calls>`,
    `<${dsml}invoke name="$TOOL_NAME">`,
    `<${dsml}parameter name="$PARAMETER_NAME" string="true|false">$PARAMETER_VALUE</${dsml}parameter>`,
    '...',
    `</${dsml}invoke>`,
    `<${dsml}invoke name="$TOOL_NAME2">`,
    '...',
    `</${dsml}invoke>`,
    `</${dsml}tool_calls>`,
    '',
    'String parameters should be specified as is and set `string="true"`. For all other types (numbers, booleans, arrays, objects), pass the value in JSON format and set `string="false"`.',
    '',
    `If thinking_mode is enabled (triggered by ${thinkingStart}), you MUST output your complete reasoning inside ${thinkingStart}...${thinkingEnd} BEFORE any tool calls or final response.`,
    '',
    `Otherwise, output directly after ${thinkingEnd} with tool calls or final response.`,
    '',
    '### Available Tool Schemas',
    '',
    tools.map((tool) => toJson(tool.function)).join('\n'),
    '',
    'You MUST strictly follow the above defined tool name and parameter schemas to invoke tool calls.',
    '',
  ].join('\n');
}

/** Python's `json.dumps(value, ensure_ascii=False)`: `", "` and `": "` between members. */
function toJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(toJson).join(', ')}]`;
  if (typeof value === 'object' && value !== null)
    return `{${Object.entries(value)
      .map(([key, member]) => `${JSON.stringify(key)}: ${toJson(member)}`)
      .join(', ')}}`;
  return JSON.stringify(value);
}

/** `encode_arguments_to_dsml`: a parameter per argument, strings as they are, other values as JSON. */
function encodeArguments(call: EncoderCall): string {
  const raw = call.function.arguments;
  const parsed = (typeof raw === 'string' ? JSON.parse(raw) : raw) as Record<string, unknown>;
  return Object.entries(parsed)
    .map(
      ([key, value]) =>
        `<${dsml}parameter name="${key}" string="${typeof value === 'string' ? 'true' : 'false'}">${typeof value === 'string' ? value : toJson(value)}</${dsml}parameter>`,
    )
    .join('\n');
}

function findLastUserIndex(messages: readonly EncoderMessage[]): number {
  for (let index = messages.length - 1; index >= 0; index--) if (messages[index]!.role === 'user') return index;
  return -1;
}

function renderMessage(index: number, messages: readonly EncoderMessage[], thinking: boolean, dropThinking: boolean): string {
  const message = messages[index]!;
  const lastUserIndex = findLastUserIndex(messages);
  let prompt = '';
  if (message.role === 'system') {
    prompt += typeof message.content === 'string' ? message.content : '';
    if (message.tools?.length) prompt += `\n\n${renderTools(message.tools)}`;
  } else if (message.role === 'user') {
    prompt += userToken;
    if (message.content_blocks?.length)
      prompt += message.content_blocks
        .map((block) => (block.type === 'text' ? block.text : `<tool_result>${block.content}</tool_result>`))
        .join('\n\n');
    else prompt += typeof message.content === 'string' ? message.content : '';
  } else if (message.role === 'assistant') {
    const calls = message.tool_calls ?? [];
    const callsText = calls.length
      ? `\n\n<${dsml}tool_calls>\n${calls.map((call) => `<${dsml}invoke name="${call.function.name}">\n${encodeArguments(call)}\n</${dsml}invoke>`).join('\n')}\n</${dsml}tool_calls>`
      : '';
    const thinkingPart = thinking && (!dropThinking || index > lastUserIndex) ? `${message.reasoning ?? ''}${thinkingEnd}` : '';
    prompt += `${thinkingPart}${typeof message.content === 'string' ? message.content : ''}${callsText}${eos}`;
  } else throw new Error(`The V4 encoder port renders no ${message.role} message`);
  // The transition tokens: only before an assistant turn or at the end.
  const next = messages[index + 1];
  if (next !== undefined && next.role !== 'assistant') return prompt;
  if (message.role === 'user') {
    prompt += assistantToken;
    prompt += thinking && (!dropThinking || index >= lastUserIndex) ? thinkingStart : thinkingEnd;
  }
  return prompt;
}

/** `merge_tool_messages`: results become `tool_result` blocks of a user turn, joined by the user's next text. */
function mergeToolMessages(messages: readonly EncoderMessage[]): EncoderMessage[] {
  const merged: EncoderMessage[] = [];
  for (const message of messages) {
    const previous = merged.at(-1);
    const mergesIntoPrevious = previous?.role === 'user' && previous.content_blocks !== undefined;
    if (message.role === 'tool') {
      const block: ContentBlock = { type: 'tool_result', tool_use_id: message.tool_call_id ?? '', content: String(message.content ?? '') };
      if (mergesIntoPrevious) previous.content_blocks!.push(block);
      else merged.push({ role: 'user', content_blocks: [block] });
    } else if (message.role === 'user') {
      const block: ContentBlock = { type: 'text', text: String(message.content ?? '') };
      if (mergesIntoPrevious) previous.content_blocks!.push(block);
      else merged.push({ role: 'user', content: message.content ?? '', content_blocks: [block] });
    } else merged.push({ ...message });
  }
  return merged;
}

/** `sort_tool_results_by_call_order`: a turn's results in the order of the calls before them. */
function sortToolResultsByCallOrder(messages: EncoderMessage[]): EncoderMessage[] {
  let order = new Map<string, number>();
  for (const message of messages) {
    if (message.role === 'assistant' && message.tool_calls?.length) {
      order = new Map(message.tool_calls.flatMap((call, index) => (call.id ? [[call.id, index] as const] : [])));
    } else if (message.role === 'user' && message.content_blocks) {
      const results = message.content_blocks.filter((block) => block.type === 'tool_result');
      if (results.length < 2 || order.size === 0) continue;
      const sorted = [...results].sort((a, b) => (order.get(a.tool_use_id) ?? 0) - (order.get(b.tool_use_id) ?? 0));
      let next = 0;
      message.content_blocks = message.content_blocks.map((block) => (block.type === 'tool_result' ? sorted[next++]! : block));
    }
  }
  return messages;
}

/** `_drop_thinking_messages`: assistant turns before the last user turn lose their reasoning. */
function dropThinkingMessages(messages: readonly EncoderMessage[]): EncoderMessage[] {
  const lastUserIndex = findLastUserIndex(messages);
  return messages.map((message, index) => {
    if (message.role !== 'assistant' || index >= lastUserIndex) return message;
    const { reasoning: _dropped, ...rest } = message;
    return rest;
  });
}

/** `encode_messages(messages, thinking_mode, drop_thinking=…)` with no context and the default BOS. */
function encodeDeepSeekV4Messages(messages: readonly EncoderMessage[], thinking: boolean, dropThinking = true): string {
  let full = sortToolResultsByCallOrder(mergeToolMessages(messages));
  // Tools on any message keep every turn's thinking.
  const effectiveDrop = dropThinking && !full.some((message) => message.tools?.length);
  if (thinking && effectiveDrop) full = dropThinkingMessages(full);
  let prompt = bos;
  for (let index = 0; index < full.length; index++) prompt += renderMessage(index, full, thinking, effectiveDrop);
  return prompt;
}

/** vLLM's `deepseek_v4` tokenizer's `apply_chat_template` over a chat request's messages, tools and chat-template kwargs. */
export function renderDeepSeekV4Request(
  messages: readonly EncoderMessage[],
  tools: readonly { function: unknown }[] | undefined,
  kwargs: Readonly<Record<string, unknown>> = {},
): string {
  const switches = [kwargs['thinking'], kwargs['enable_thinking']];
  const thinking = switches.every((value) => value === undefined) ? true : switches.some(Boolean);
  let withTools = [...messages];
  if (tools?.length) {
    const head = withTools[0];
    if (head?.role === 'system') withTools[0] = { ...head, tools: [...tools] };
    else withTools = [{ role: 'system', tools: [...tools] }, ...withTools];
  }
  return encodeDeepSeekV4Messages(withTools, thinking, kwargs['drop_thinking'] === undefined ? true : Boolean(kwargs['drop_thinking']));
}
