/** DeepSeek's DSML markup (V3.2, V4: the deepseek-v32 and deepseek-v4 families), `<｜DSML｜…>` tags with the full-width bar U+FF5C byte for byte, and its invoke grammar. */
// @see https://github.com/vllm-project/vllm/blob/main/vllm/tool_parsers/deepseekv32_tool_parser.py
import { invokeParametersGrammar } from './invoke-parameters-grammar.js';

const dsml = '｜DSML｜';

/** V3.2 wraps the calls in `function_calls`; V4 keeps the grammar and says `tool_calls`. */
export const functionCallsOpen = `<${dsml}function_calls>`;
export const functionCallsClose = `</${dsml}function_calls>`;
export const toolCallsOpen = `<${dsml}tool_calls>`;
export const toolCallsClose = `</${dsml}tool_calls>`;
/** Followed by ` name="NAME">`. */
export const invokeOpen = `<${dsml}invoke`;
export const invokeClose = `</${dsml}invoke>`;
/** Followed by ` name="KEY" string="true|false">VALUE`. */
export const parameterOpen = `<${dsml}parameter`;
export const parameterClose = `</${dsml}parameter>`;

/** The invokes inside a DSML section. */
export const dsmlInvokeGrammar = invokeParametersGrammar({ id: 'deepseek-dsml', invokeOpen, invokeClose, parameterOpen, parameterClose });

/**
 * DeepSeek V4.1 writes the same markup with a space before each tag name, and `calls` for `tool_calls`
 * (`<｜DSML｜ calls>`, `<｜DSML｜ invoke …>`, `<｜DSML｜ parameter …>`), as its encoder's tag names say.
 * @see https://huggingface.co/deepseek-ai/DeepSeek-V4.1-Flash/blob/main/encoding/encoding.py (TOOL_CALLS_BLOCK_NAME)
 */
export const spacedCallsOpen = `<${dsml} calls>`;
export const spacedCallsClose = `</${dsml} calls>`;
export const spacedInvokeOpen = `<${dsml} invoke`;
export const spacedInvokeClose = `</${dsml} invoke>`;
export const spacedParameterOpen = `<${dsml} parameter`;
export const spacedParameterClose = `</${dsml} parameter>`;

/** The invokes inside a V4.1 `calls` section. */
export const spacedDsmlInvokeGrammar = invokeParametersGrammar({
  id: 'deepseek-dsml-spaced',
  invokeOpen: spacedInvokeOpen,
  invokeClose: spacedInvokeClose,
  parameterOpen: spacedParameterOpen,
  parameterClose: spacedParameterClose,
});
