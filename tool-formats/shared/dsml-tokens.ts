/** DeepSeek's DSML markup (V3.2, V4, V4.1: the deepseek-v32, deepseek-v4 and deepseek-v41 families), `<｜DSML｜…>` tags with the full-width bar U+FF5C byte for byte, and its invoke grammars. */
// @see https://github.com/vllm-project/vllm/blob/main/vllm/tool_parsers/deepseekv32_tool_parser.py
import type { BodyGrammar } from './body-grammar.js';
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

/** A DSML dialect: the section a turn's calls go in, and the invoke and parameter tags inside it. */
export type DsmlDialect = {
  sectionOpen: string;
  sectionClose: string;
  /** Followed by ` name="NAME">`. */
  invokeOpen: string;
  invokeClose: string;
  /** Followed by ` name="KEY" string="true|false">VALUE`. */
  parameterOpen: string;
  parameterClose: string;
  /** The invokes inside the section. */
  grammar: BodyGrammar;
};

/** V3.2's section: `function_calls`. */
export const functionCallsDialect: DsmlDialect = {
  sectionOpen: functionCallsOpen,
  sectionClose: functionCallsClose,
  invokeOpen,
  invokeClose,
  parameterOpen,
  parameterClose,
  grammar: dsmlInvokeGrammar,
};

/** V4's section: `tool_calls`, the same tags inside. */
export const toolCallsDialect: DsmlDialect = { ...functionCallsDialect, sectionOpen: toolCallsOpen, sectionClose: toolCallsClose };

/**
 * DeepSeek V4.1 writes the same markup with a space before each tag name, and `calls` for `tool_calls`
 * (`<｜DSML｜ calls>`, `<｜DSML｜ invoke …>`, `<｜DSML｜ parameter …>`): its encoder's `tool_calls_block_name`,
 * `tool_call_tag_name` and `tool_parameter_tag_name`.
 * @see https://github.com/vllm-project/vllm/blob/main/vllm/tokenizers/deepseek_v41_encoding.py
 */
const spacedTags = {
  invokeOpen: `<${dsml} invoke`,
  invokeClose: `</${dsml} invoke>`,
  parameterOpen: `<${dsml} parameter`,
  parameterClose: `</${dsml} parameter>`,
};

export const spacedCallsDialect: DsmlDialect = {
  sectionOpen: `<${dsml} calls>`,
  sectionClose: `</${dsml} calls>`,
  ...spacedTags,
  grammar: invokeParametersGrammar({ id: 'deepseek-dsml-spaced', ...spacedTags }),
};
