/** The hunyuan family (Tencent Hunyuan-A13B and its dense siblings): `<tool_calls>[…]</tool_calls>` inside `<answer>`. */
// A reply is `<think>…</think>` then `<answer>…</answer>`; the answer tags only frame the answer, so they
// are removed and what they hold is read as text and calls. Answers without a call begin with `助手：`
// ("Assistant:"), as the template asks; vLLM's parser drops it, and so does this family's parser. These
// framings are tags and words other models may write as text, so only this family's parser removes them.
// The prompt is the template's own (in Chinese); results go back in <tool_response> tags as the template
// writes tool messages.
// @see https://github.com/vllm-project/vllm/blob/main/vllm/tool_parsers/hunyuan_a13b_tool_parser.py
// @see https://github.com/vllm-project/vllm/blob/main/vllm/reasoning/hunyuan_a13b_reasoning_parser.py
import type { FamilySpec } from '../shared/family-spec.js';
import { formatJson } from '../shared/format-json.js';
import { renderToolCallsList, toolCallsClose, toolCallsEnvelope, toolCallsOpen } from '../shared/tool-calls-list.js';
import { toolAsFunction } from '../shared/tool-prompt.js';
import { taggedResults } from '../shared/tool-result-text.js';

const family = 'hunyuan';

const callFormat = `${toolCallsOpen}[{"name": "func_name1", "arguments": {"argument1": "value1", "argument2": "value2"}},...]${toolCallsClose}`;

export const hunyuanFamily: FamilySpec = {
  family,
  envelopes: [toolCallsEnvelope(family)],
  familyFramingTokens: ['<answer>', '</answer>', '助手：'],
  prompt: {
    introduction: [
      '你是一位函数组合专家。你会得到一个问题和一组可能的函数。根据问题，你需要进行一个或多个函数/工具调用以实现目的。',
      '如果没有一个函数可以使用，请直接使用自然语言回复用户，以助手：开头。',
      '如果给定的问题缺少函数所需的参数，请使用自然语言进行提问，向用户询问必要信息，以助手：开头。',
      '如果调用结果已经足够回答用户问题，请对历史结果进行总结，使用自然语言回复用户，以助手：开头。',
      `你应该只在工具调用部分返回函数调用。如果你决定调用任何函数，你必须将其格式化为${callFormat}。你不应该在回复中包含任何其他文本。以下是你可以调用的函数列表，格式为JSON。`,
    ].join('\n'),
    renderToolList: (tools) => formatJson(tools.map(toolAsFunction)),
    callInstructions: `如果你决定返回函数调用，请将其格式化为${callFormat}，不得包含其他文本。\n否则，请参考开头说的三种情况，以助手：开头进行回复。`,
    resultInstructions: '函数的调用结果会在下一轮用户消息中返回，每个结果放在<tool_response></tool_response>标签内。',
  },
  renderCall: (call) => renderToolCallsList([call]),
  renderCalls: renderToolCallsList,
  renderResults: taggedResults('<tool_response>', '</tool_response>'),
};
