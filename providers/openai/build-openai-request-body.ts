/** Neutral ChatRequest → the JSON body of an OpenAI Chat Completions request (streamed, or whole for non-streaming clients). */
import type { ChatRequest, ResponseFormat } from '../../src/core/chat-request.js';
import type { RequestCaches } from '../../src/core/request-caches.js';
import { isSharedToolList, type SharedToolList } from '../../src/core/shared-tool-list.js';
import type { ToolChoice, ToolDefinition } from '../../src/core/tool-definition.js';
import { convertToOpenAiMessages, type OpenAiMessage, type OpenAiMessageOptions } from './convert-to-openai-messages.js';
import { joinJsonPieces, stringifyWithRawMembers, type JsonPiece } from './stringify-with-raw-members.js';
import { isServerSamplingExtension } from '../../src/core/server-sampling-extensions.js';
import type { Warning } from '../../src/core/warning.js';
import type { Message, SystemMessage } from '../../src/core/message.js';
import { parallelToolCallsForServer, toolsForServer } from './server-tool-choice.js';
import { reasoningFieldOf } from '../../src/core/reasoning-field.js';
import { reasoningKeptAfter, templateKwargsOf } from '../../src/core/reasoning-kept-by-template.js';

export type OpenAiFlavour = 'openai' | 'openai-compatible';
export type OpenAiBodyOptions = {
  stream: boolean;
  /**
   * The upstream speaks OpenAI's API as it was before `max_completion_tokens`, `parallel_tool_calls` and
   * `stream_options` (Azure's dated API versions before 2024-09-01-preview, which refuse them as
   * "Unrecognized request argument supplied"): `max_tokens`, and neither of the other two.
   */
  olderApi?: boolean;
};
/** What the serialiser remembers between requests (see src/core/request-caches.ts). */
export type OpenAiBodyCaches = Pick<RequestCaches, 'upstreamToolsJson' | 'longTextJson'>;

function convertToolChoice(choice: ToolChoice): unknown {
  return choice.type === 'tool' ? { type: 'function', function: { name: choice.name } } : choice.type;
}

/** The neutral json_schema format flattens OpenAI's `json_schema` member; the wire nests it again. */
function convertResponseFormat(format: ResponseFormat | null | undefined): unknown {
  if (format?.type !== 'json_schema') return format;
  const { type, ...jsonSchema } = format;
  return { type, json_schema: jsonSchema };
}

export function convertTools(tools: readonly ToolDefinition[]): unknown[] {
  return tools.map((tool) => {
    const definition: Record<string, unknown> = { name: tool.name, parameters: tool.parameters };
    if (tool.description !== undefined) definition.description = tool.description;
    if (tool.strict !== undefined) definition.strict = tool.strict;
    return { type: 'function', function: definition };
  });
}

/** Servers that turn each earlier call's arguments into an object for the chat template, and fail when they cannot. */
function parsesArguments(server: ChatRequest['model']['server']): boolean {
  return server === 'vllm' || server === 'sglang' || server === 'llama.cpp';
}

/**
 * The earlier turns' reasoning the model's template keeps, in the field the server reads it from
 * (reasoning-kept-by-template.ts): every turn's when the request asks for it (the prompted lane, for a
 * family whose encoder shows them all, or whose history it already pruned), else the turns the
 * family's template keeps. Nothing for servers not known to read it.
 */
function replayedReasoning(
  request: ChatRequest,
  messages: readonly Message[],
): Pick<OpenAiMessageOptions, 'reasoningField' | 'reasoningAfter'> {
  const field = reasoningFieldOf(request.model.server);
  if (field === undefined) return {};
  if (request.replayReasoning === true) return { reasoningField: field };
  const after = reasoningKeptAfter(messages, request.model.family, templateKwargsOf(request));
  return after === undefined ? {} : { reasoningField: field, reasoningAfter: after };
}

/** The body with `wireTools` as its `tools` (set only when the request has tools). */
function assembleBody(
  request: ChatRequest,
  flavour: OpenAiFlavour,
  options: OpenAiBodyOptions,
  wireTools: () => unknown,
): Record<string, unknown> {
  const body: Record<string, unknown> = flavour === 'openai' ? extrasForOpenAi(request.openaiExtras) : { ...request.openaiExtras };
  body.model = request.model.model;
  // OpenAI itself takes system messages anywhere; the servers behind openai-compatible mostly do not.
  body.messages = flavour === 'openai' ? convertToOpenAiMessages(request.messages) : compatibleMessages(request);
  const sent = flavour === 'openai-compatible' ? toolsForServer(request) : request;
  if (sent.tools?.length) {
    body.tools = sent === request ? wireTools() : convertTools(sent.tools);
    if (sent.toolChoice) body.tool_choice = convertToolChoice(sent.toolChoice);
    if (!options.olderApi)
      setIfGiven(
        body,
        'parallel_tool_calls',
        flavour === 'openai-compatible' ? parallelToolCallsForServer(request) : request.parallelToolCalls,
      );
  }
  // OpenAI deprecated max_tokens for max_completion_tokens; most compatible servers know only max_tokens.
  setIfGiven(body, flavour === 'openai' && !options.olderApi ? 'max_completion_tokens' : 'max_tokens', request.maxOutputTokens);
  setSharedSamplingOptions(body, request);
  setIfGiven(body, 'response_format', convertResponseFormat(request.responseFormat));
  setIfGiven(body, 'reasoning_effort', request.reasoningEffort);
  setIfGiven(body, 'user', request.user);
  if (flavour === 'openai-compatible') {
    askToKeepSpecialTokens(request, body);
    askToContinueFinalMessage(request, body);
  }
  if (options.stream) {
    body.stream = true;
    if (!options.olderApi) body.stream_options = { include_usage: true };
  } else {
    // Explicit: some compatible servers stream unless told otherwise.
    body.stream = false;
  }
  return body;
}

/** The messages for an OpenAI-compatible server: system messages folded, the kept reasoning replayed. */
export function compatibleMessages(request: ChatRequest): OpenAiMessage[] {
  const messages = foldSystemMessages(request.messages);
  return convertToOpenAiMessages(messages, {
    argumentsAsObjects: parsesArguments(request.model.server),
    ...replayedReasoning(request, messages),
  });
}

export function buildOpenAiRequestBody(
  request: ChatRequest,
  flavour: OpenAiFlavour,
  options: OpenAiBodyOptions = { stream: true },
): Record<string, unknown> {
  return assembleBody(request, flavour, options, () => convertTools(request.tools ?? []));
}

function toolsJsonOf(tools: SharedToolList<ToolDefinition>, caches: OpenAiBodyCaches): Buffer {
  return caches.upstreamToolsJson.get(tools, () => Buffer.from(JSON.stringify(convertTools(tools)), 'utf8'));
}

/** The messages' JSON when one of them has a long text worth remembering; undefined otherwise (plain JSON.stringify is faster). */
function messagesJsonWithLongTexts(messages: OpenAiMessage[], longTexts: OpenAiBodyCaches['longTextJson']): JsonPiece[] | undefined {
  // Most bodies have no long text: find that out without allocating anything.
  let contents: (Buffer | undefined)[] | undefined;
  for (const [index, message] of messages.entries()) {
    const content = typeof message.content === 'string' ? longTexts.of(message.content) : undefined;
    if (content === undefined) continue;
    contents ??= new Array<Buffer | undefined>(messages.length);
    contents[index] = content;
  }
  if (!contents) return undefined;
  const pieces: JsonPiece[] = ['['];
  for (const [index, message] of messages.entries()) {
    if (index > 0) pieces.push(',');
    const content = contents[index];
    if (content === undefined) pieces.push(JSON.stringify(message));
    else pieces.push(...stringifyWithRawMembers(message, new Map([['content', [content]]])));
  }
  pieces.push(']');
  return pieces;
}

/**
 * The request body as JSON: JSON.stringify(buildOpenAiRequestBody(…)), byte for byte, as a string,
 * or as UTF-8 bytes when parts were spliced in. What agents resend on every turn is serialised (and
 * encoded) once and spliced in: a shared tool list (native lane), and long message texts such as a
 * system prompt carrying the rendered tools (prompted lane). Without caches, nothing is remembered.
 */
export function serializeOpenAiRequestBody(
  request: ChatRequest,
  flavour: OpenAiFlavour,
  options: OpenAiBodyOptions = { stream: true },
  caches?: OpenAiBodyCaches,
): string | Buffer {
  if (caches === undefined) return JSON.stringify(buildOpenAiRequestBody(request, flavour, options));
  // A list the server is sent only part of (or none of) is serialised whole neither from nor into the cache.
  const unchanged = flavour === 'openai' || toolsForServer(request) === request;
  const knownTools = request.tools?.length && isSharedToolList(request.tools) && unchanged ? request.tools : undefined;
  // A shared list's stand-in only holds the member's place in the key order; its text comes from the cache.
  const body = assembleBody(request, flavour, options, () => (knownTools ? null : convertTools(request.tools ?? [])));
  const messagesJson = messagesJsonWithLongTexts(body.messages as OpenAiMessage[], caches.longTextJson);
  if (!knownTools && messagesJson === undefined) return JSON.stringify(body);
  const rawMembers = new Map<string, readonly JsonPiece[]>();
  if (knownTools) rawMembers.set('tools', [toolsJsonOf(knownTools, caches)]);
  if (messagesJson !== undefined) rawMembers.set('messages', messagesJson);
  return joinJsonPieces(stringifyWithRawMembers(body, rawMembers));
}

/** The generation options OpenAI's API and llama-server's `/completion` both name the same way. */
export function setIfGiven(body: Record<string, unknown>, key: string, value: unknown): void {
  // undefined = not given; null, 0 and false are values and go upstream as they are.
  if (value !== undefined) body[key] = value;
}

/** temperature, top_p, stop, seed and the two penalties, each only when the client gave it. */
export function setSharedSamplingOptions(body: Record<string, unknown>, request: ChatRequest): void {
  setIfGiven(body, 'temperature', request.temperature);
  setIfGiven(body, 'top_p', request.topP);
  setIfGiven(body, 'stop', request.stop);
  setIfGiven(body, 'seed', request.seed);
  setIfGiven(body, 'presence_penalty', request.presencePenalty);
  setIfGiven(body, 'frequency_penalty', request.frequencyPenalty);
}

// The fields of an OpenAI body that belong to one kind of server: the inference servers' own sampling and
// decoding fields (never sent to OpenAI itself, which rejects unknown fields), and the prompted lane's
// request that vLLM or SGLang keep the reply's special tokens.

/** The client's extras as OpenAI itself takes them: the servers' own fields left out. */
function extrasForOpenAi(extras: Record<string, unknown> | undefined): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const name in extras) if (!isServerSamplingExtension(name)) kept[name] = extras[name];
  return kept;
}

/** What extrasForOpenAi left out, said rather than dropped in silence. */
export function serverFieldWarnings(extras: Record<string, unknown> | undefined): Warning[] {
  const warnings: Warning[] = [];
  for (const name in extras) {
    if (isServerSamplingExtension(name))
      warnings.push({
        code: 'unsupported-parameter',
        message: `'${name}' is a vLLM/llama.cpp field that OpenAI does not take; it was not sent.`,
      });
  }
  return warnings;
}

/**
 * vLLM and SGLang remove special tokens from the reply unless told not to (`skip_special_tokens`
 * defaults to true; their tool parsers turn it off only for requests with tools, which the prompted
 * lane does not send), and put spaces between them; the parser needs the markers as the model wrote
 * them. A value the client sent itself is kept.
 * @see https://github.com/vllm-project/vllm/blob/main/vllm/entrypoints/openai/chat_completion/protocol.py
 */
function askToKeepSpecialTokens(request: ChatRequest, body: Record<string, unknown>): void {
  if (request.keepSpecialTokens === undefined) return;
  const server = request.model.server;
  if (server !== 'vllm' && server !== 'sglang') return;
  if (body.skip_special_tokens === undefined) body.skip_special_tokens = false;
  if (body.spaces_between_special_tokens === undefined) body.spaces_between_special_tokens = false;
}

/**
 * A conversation ending in the assistant's own words (Anthropic's prefill, a Chat client's final
 * assistant message) is to be continued, not answered by a new turn. vLLM and SGLang start a new
 * assistant turn unless told `continue_final_message` (vLLM refuses it beside `add_generation_prompt`,
 * which defaults to true: protocol.py `check_generation_prompt`; SGLang's serving_chat.py renders the
 * rest and appends the final message's text). llama-server continues one by itself (`prefill_assistant`,
 * on by default, in server-common.cpp `oaicompat_chat_params_parse`), as does Ollama. Values the client
 * sent are kept.
 * @see https://docs.vllm.ai/en/latest/serving/openai_compatible_server.html#chat-api
 */
function askToContinueFinalMessage(request: ChatRequest, body: Record<string, unknown>): void {
  const server = request.model.server;
  if ((server !== 'vllm' && server !== 'sglang') || body.continue_final_message !== undefined) return;
  const last = request.messages.at(-1);
  if (last?.role !== 'assistant' || last.content.some((part) => part.type === 'tool-call')) return;
  body.continue_final_message = true;
  if (server === 'vllm' && body.add_generation_prompt === undefined) body.add_generation_prompt = false;
}

// Folds every system message into one leading system message, for OpenAI-compatible servers.

/**
 * Claude Code puts `role: "system"` messages mid-conversation, and Responses clients send
 * `developer` items after the first turn. OpenAI takes system messages anywhere, but the chat
 * templates behind most OpenAI-compatible servers do not: Qwen's and Llama's render only a leading
 * system message, and vLLM and llama.cpp reject a late one ("System message must be at the
 * beginning"). So every system message's text joins the first one, in order, separated by a blank
 * line, and the rest of the conversation keeps its order. A conversation that already has at most
 * one system message, at the start, is returned as it is (no copy on the hot path).
 */
export function foldSystemMessages(messages: Message[]): Message[] {
  let systemCount = 0;
  for (const [index, message] of messages.entries()) {
    if (message.role !== 'system') continue;
    systemCount++;
    if (index > 0 || systemCount > 1) return fold(messages);
  }
  return messages;
}

function fold(messages: Message[]): Message[] {
  const texts: string[] = [];
  const rest: Message[] = [];
  for (const message of messages) {
    if (message.role !== 'system') rest.push(message);
    else if (message.content !== '') texts.push(message.content);
  }
  if (texts.length === 0) return rest;
  const leading: SystemMessage = { role: 'system', content: texts.join('\n\n') };
  return [leading, ...rest];
}
