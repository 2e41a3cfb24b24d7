/** A validated Chat Completions body → the neutral ChatInput plus the route's own settings. */
import type { ChatInput, ResponseFormat } from '../../src/core/chat-request.js';
import { gatewayError, invalidRequest } from '../../src/core/gateway-error.js';
import { isServerSamplingExtension } from '../../src/core/server-sampling-extensions.js';
import type { BodyValidators } from '../shared/body-validator.js';
import type { RouteToolCaches } from '../shared/memoise-known-list.js';
import { chatCompletionRequestSchema, type ChatCompletionBody } from './chat-completion-request-schema.js';
import { parseChatMessages } from './parse-chat-messages.js';
import { shareToolList } from '../../src/core/shared-tool-list.js';
import type { ToolChoice, ToolDefinition, ToolExample } from '../../src/core/tool-definition.js';
import { memoiseKnownList } from '../shared/memoise-known-list.js';
import { allowedOf } from '../shared/allowed-tools.js';
import type { WireFunction, WireTool, WireToolChoice } from './chat-completion-request-schema.js';

/** OpenAI fields with no neutral meaning: forwarded to OpenAI-kind upstreams, a warning elsewhere. */
const openaiOnlyFields = [
  'logit_bias',
  'metadata',
  'store',
  'service_tier',
  'prediction',
  'modalities',
  'audio',
  'web_search_options',
  'verbosity',
  'prompt_cache_key',
  'prompt_cache_retention',
  'safety_identifier',
  // Log probabilities: OpenAI-kind upstreams return them in each choice's `logprobs`, which the reply carries
  // through (src/core/token-logprob.ts); other kinds say they have none.
  'logprobs',
  'top_logprobs',
  // vLLM, SGLang and llama.cpp's switch for template variables (enable_thinking); it also tells the
  // prompted lane whether the reply begins inside reasoning.
  'chat_template_kwargs',
] as const;

export type ParsedChatCompletionRequest = {
  input: ChatInput;
  stream: boolean;
  includeUsage: boolean;
  agentFormat?: string;
  toolCallTags?: string;
};

function responseFormatOf(value: ChatCompletionBody['response_format']): ResponseFormat | null | undefined {
  if (value === undefined || value === null) return value;
  if (value.type === 'json_schema') {
    const schema = (value as { json_schema?: Record<string, unknown> }).json_schema;
    if (!schema || typeof schema.name !== 'string')
      throw invalidRequest('response_format.json_schema.name is required.', 'response_format.json_schema');
    const format: ResponseFormat = { type: 'json_schema', name: schema.name };
    if (schema.schema && typeof schema.schema === 'object') format.schema = schema.schema as Record<string, unknown>;
    if (typeof schema.description === 'string') format.description = schema.description;
    if (typeof schema.strict === 'boolean' || schema.strict === null) format.strict = schema.strict as boolean | null;
    return format;
  }
  return { type: value.type as 'text' | 'json_object' };
}

/**
 * OpenAI's deprecated function calling (`functions`, `function_call`). Its clients read the reply's
 * `message.function_call`, so answering with `tool_calls` would lose every call, and leaving the functions
 * out would hide them from the model without a word: refused, naming the fields to send instead.
 */
function refuseLegacyFunctions(body: ChatCompletionBody): void {
  for (const field of ['functions', 'function_call']) {
    if (body[field] === undefined || body[field] === null) continue;
    throw gatewayError('unsupported_value', {
      message: `'${field}' (OpenAI's deprecated function calling) is not supported by this gateway: send the functions as 'tools' and choose with 'tool_choice'.`,
      param: field,
    });
  }
}

export function parseChatCompletionRequest(
  raw: unknown,
  validators: BodyValidators,
  caches?: RouteToolCaches,
): ParsedChatCompletionRequest {
  const body = validators.for<ChatCompletionBody>(chatCompletionRequestSchema)(raw, caches);
  if (typeof body.n === 'number' && body.n !== 1)
    throw gatewayError('unsupported_value', { message: 'Only n = 1 is supported.', param: 'n' });
  refuseLegacyFunctions(body);
  const input: ChatInput = { model: body.model, messages: parseChatMessages(body.messages) };
  if (body.tools?.length) input.tools = parseChatTools(body.tools, caches?.toolTranslations);
  const toolChoice = parseChatToolChoice(body.tool_choice);
  if (toolChoice) input.toolChoice = toolChoice;
  const allowed = allowedToolNames(body.tool_choice);
  if (allowed) input.tools = allowedOf(input.tools ?? [], allowed);
  if (body.parallel_tool_calls !== undefined) input.parallelToolCalls = body.parallel_tool_calls;
  // max_completion_tokens replaces max_tokens; a null one is unset (as OpenAI reads it), so max_tokens beside it
  // still limits the reply. A null the client sent, with no limit anywhere, goes upstream as it came.
  const maxTokens = body.max_completion_tokens ?? body.max_tokens ?? body.max_completion_tokens;
  if (maxTokens !== undefined) input.maxOutputTokens = maxTokens;
  if (body.temperature !== undefined) input.temperature = body.temperature;
  if (body.top_p !== undefined) input.topP = body.top_p;
  if (body.stop !== undefined) input.stop = typeof body.stop === 'string' ? [body.stop] : body.stop;
  if (body.seed !== undefined) input.seed = body.seed;
  if (body.presence_penalty !== undefined) input.presencePenalty = body.presence_penalty;
  if (body.frequency_penalty !== undefined) input.frequencyPenalty = body.frequency_penalty;
  const responseFormat = responseFormatOf(body.response_format);
  if (responseFormat !== undefined) input.responseFormat = responseFormat;
  if (body.reasoning_effort !== undefined) input.reasoningEffort = body.reasoning_effort;
  if (body.user !== undefined) input.user = body.user;
  const extras: Record<string, unknown> = {};
  for (const field of openaiOnlyFields) if (body[field] !== undefined) extras[field] = body[field];
  // vLLM's, SGLang's and llama-server's own fields (top_k, min_p, skip_special_tokens, …): the body's few
  // keys are looked up in the list rather than the list in the body.
  for (const field in body) if (isServerSamplingExtension(field) && body[field] !== undefined) extras[field] = body[field];
  if (Object.keys(extras).length) input.openaiExtras = extras;
  const parsed: ParsedChatCompletionRequest = {
    input,
    stream: body.stream === true,
    includeUsage: body.stream_options?.include_usage === true,
  };
  if (typeof body.agent_format === 'string') parsed.agentFormat = body.agent_format;
  if (typeof body.tool_call_tags === 'string') parsed.toolCallTags = body.tool_call_tags;
  return parsed;
}

/** OpenAI tools and tool_choice (wrapped or flat shapes, with optional prompt metadata) → neutral. */
function examplesOf(value: unknown): ToolExample[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const examples: ToolExample[] = [];
  for (const item of value) {
    if (!item || typeof item !== 'object' || Array.isArray(item)) continue;
    const record = item as Record<string, unknown>;
    const args = record.arguments ?? record.input ?? record.parameters;
    if (args && typeof args === 'object' && !Array.isArray(args)) {
      const example: ToolExample = { arguments: args as Record<string, unknown> };
      if (typeof record.description === 'string') example.description = record.description;
      examples.push(example);
    } else examples.push({ arguments: record });
  }
  return examples;
}

/** Prompt metadata may sit on the function or on the tool wrapper. */
function pick(definition: WireFunction, tool: WireTool, key: string): unknown {
  return definition[key] ?? tool[key];
}

export function parseChatTool(tool: WireTool): ToolDefinition {
  // The wrapped shape {type, function} or the flat one (the function itself).
  const definition = (tool.function ?? tool) as WireFunction;
  const result: ToolDefinition = {
    name: definition.name,
    parameters: definition.parameters ?? { type: 'object', properties: {} },
  };
  if (typeof definition.description === 'string') result.description = definition.description;
  if (typeof definition.strict === 'boolean' || definition.strict === null) result.strict = definition.strict;
  const whenToUse = pick(definition, tool, 'when_to_use');
  if (typeof whenToUse === 'string') result.whenToUse = whenToUse;
  const tags = pick(definition, tool, 'tags');
  if (Array.isArray(tags)) result.tags = tags.filter((tag): tag is string => typeof tag === 'string');
  const examples = examplesOf(pick(definition, tool, 'examples'));
  if (examples) result.examples = examples;
  return result;
}

/**
 * The request's tools in neutral form. A shared list (one the body parser reused) is translated once,
 * and every request that resends it gets the same shared list.
 */
export const parseChatTools = memoiseKnownList((tools: readonly WireTool[]): ToolDefinition[] => tools.map(parseChatTool), shareToolList);

export function parseChatToolChoice(choice: WireToolChoice | undefined): ToolChoice | undefined {
  if (choice === undefined || choice === null) return undefined;
  if (typeof choice === 'string') return { type: choice };
  if (choice.type === 'allowed_tools') return { type: choice.allowed_tools.mode };
  // `{type: 'function', name}`: the Responses shape, which some clients send here too.
  const name = choice.function?.name ?? (typeof choice.name === 'string' ? choice.name : undefined);
  return name === undefined ? undefined : { type: 'tool', name };
}

/**
 * The functions `{type: "allowed_tools"}` lets the model use this turn, by name (`{type: "function",
 * function: {name}}`, or the flat `{type: "function", name}`): only they are offered. Undefined for every
 * other choice.
 */
function allowedToolNames(choice: WireToolChoice | undefined): Set<string> | undefined {
  if (typeof choice !== 'object' || choice === null || choice.type !== 'allowed_tools') return undefined;
  const names = choice.allowed_tools.tools.flatMap((tool) => {
    const name = (tool.function as { name?: unknown } | undefined)?.name ?? tool.name;
    return typeof name === 'string' ? [name] : [];
  });
  return new Set(names);
}
