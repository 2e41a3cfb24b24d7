/** The family spec of a DeepSeek V4-line model (V4, V4.1), whose encoders differ only in their DSML dialect. */
// Written: what DeepSeek's own encoder (`encoding/encoding_dsv4.py` of deepseek-ai/DeepSeek-V4-Flash and
// -Pro, the prompt the model was trained on; V4.1's `encoding.py`, the same but for its tags) writes, byte
// for byte as V4's gold `tests/test_output_1.txt` shows. It is not V3.2's: the tool block (`TOOLS_TEMPLATE`)
// has other words, a "### Available Tool Schemas" section and a closing rule, and ends in a newline; a
// turn's calls follow a blank line in the dialect's section (V4 `tool_calls`, V4.1 ` calls`; V3.2
// `function_calls`); there is no tool role: `merge_tool_messages` turns results into a user turn of
// `<tool_result>…</tool_result>` blocks joined by a blank line (V3.2 joins them to the call turn).
// Read: every DSML section (the family's own first, then V4's, V3.2's and V4.1's, as a model of the line
// may answer in a sibling's), each parameter a raw value converted by the tool's schema (vLLM's
// `deepseekv4_tool_parser.py` is V3.2's parser with V4's markers).
// @see https://huggingface.co/deepseek-ai/DeepSeek-V4-Flash/blob/main/encoding/encoding_dsv4.py
// @see https://github.com/vllm-project/vllm/blob/main/vllm/tokenizers/deepseek_v41_encoding.py
// @see https://github.com/vllm-project/vllm/blob/main/vllm/tool_parsers/deepseekv4_tool_parser.py
import { placeAfterSystemText } from '../shared/after-system-text.js';
import { endOfSentence } from '../shared/deepseek-tokens.js';
import { functionCallsDialect, spacedCallsDialect, toolCallsDialect, type DsmlDialect } from '../shared/dsml-tokens.js';
import { taggedEnvelope, type Envelope } from '../shared/envelope.js';
import type { FamilySpec } from '../shared/family-spec.js';
import { formatJson } from '../shared/format-json.js';
import { renderDsmlSection } from '../shared/render-dsml-invoke.js';
import { toolSignature } from '../shared/tool-prompt.js';
import { resultText } from '../shared/tool-result-text.js';

const thinkingOpen = '<think>';
const thinkingClose = '</think>';
const dialects = [toolCallsDialect, functionCallsDialect, spacedCallsDialect];

/** A value may hold code with the section's end tag in it; only its own close ends it. */
function dialectEnvelope(family: string, dialect: DsmlDialect): Envelope {
  return taggedEnvelope(family, dialect.sectionOpen, dialect.sectionClose, [dialect.grammar], {
    valueSpans: [{ open: dialect.parameterOpen, close: dialect.parameterClose }],
  });
}

/** The encoder's TOOLS_TEMPLATE up to the schemas, in its words and blank lines, in the dialect's tags. */
function introduction({ sectionOpen, sectionClose, invokeOpen, invokeClose, parameterOpen, parameterClose }: DsmlDialect): string {
  return [
    '## Tools',
    '',
    `You have access to a set of tools to help answer the user's question. You can invoke tools by writing a "${sectionOpen}" block like the following:`,
    '',
    sectionOpen,
    `${invokeOpen} name="$TOOL_NAME">`,
    `${parameterOpen} name="$PARAMETER_NAME" string="true|false">$PARAMETER_VALUE${parameterClose}`,
    '...',
    invokeClose,
    `${invokeOpen} name="$TOOL_NAME2">`,
    '...',
    invokeClose,
    sectionClose,
    '',
    'String parameters should be specified as is and set `string="true"`. For all other types (numbers, booleans, arrays, objects), pass the value in JSON format and set `string="false"`.',
    '',
    `If thinking_mode is enabled (triggered by ${thinkingOpen}), you MUST output your complete reasoning inside ${thinkingOpen}...${thinkingClose} BEFORE any tool calls or final response.`,
    '',
    `Otherwise, output directly after ${thinkingClose} with tool calls or final response.`,
  ].join('\n');
}

export function dsv4FamilySpec(family: string, dialect: DsmlDialect): FamilySpec {
  return {
    family,
    envelopes: [dialect, ...dialects.filter((other) => other !== dialect)].map((each) => dialectEnvelope(family, each)),
    framingTokens: [endOfSentence],
    // None of the DSML markers is a special token: vLLM's DeepSeek V3.2 parser (which V4's inherits) says
    // so where it turns skip_special_tokens off anyway, and the servers read the markers as text.
    // @see https://github.com/vllm-project/vllm/blob/main/vllm/tool_parsers/deepseekv32_tool_parser.py (adjust_request)
    specialTokens: [],
    prompt: {
      introduction: introduction(dialect),
      // `json.dumps(tool["function"])` per line (`render_tools`).
      renderToolList: (tools) => `### Available Tool Schemas\n\n${tools.map((tool) => formatJson(toolSignature(tool))).join('\n')}`,
      // The template's last line, and the newline it ends with.
      callInstructions: 'You MUST strictly follow the above defined tool name and parameter schemas to invoke tool calls.\n',
    },
    placeToolPrompt: placeAfterSystemText,
    // With tools on a message, `encode_messages` renders with `drop_thinking` off: `<think>` after every
    // user turn and every assistant turn's reasoning before `</think>`, in thinking mode. The prompted lane
    // declares no tools to the server, whose encoder then drops them unless told (vLLM's deepseek_v4
    // tokenizer reads `drop_thinking` from the chat-template kwargs, default true, as its deepseek_v41 one does;
    // SGLang's V4 template too).
    // @see https://github.com/vllm-project/vllm/blob/main/vllm/tokenizers/deepseek_v4.py (apply_chat_template)
    // @see https://github.com/vllm-project/vllm/blob/main/vllm/tokenizers/deepseek_v41.py (apply_chat_template)
    thinkingWithTools: { chatTemplateKwargs: { drop_thinking: false } },
    renderCall: (call) => renderDsmlSection([call], dialect),
    // One section for the turn's calls, after a blank line even when the turn has no text.
    renderCalls: (calls) => `\n\n${renderDsmlSection(calls, dialect)}`,
    textBeforeCalls: '',
    // `merge_tool_messages`: one user turn, a `<tool_result>` block per result, a blank line between them
    // (and before the user's next text, which the server's encoder merges into the same turn).
    renderResults: (results) => results.map((result) => `<tool_result>${resultText(result)}</tool_result>`).join('\n\n'),
  };
}
