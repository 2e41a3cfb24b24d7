/** A validated Responses body → the neutral ChatInput, the fields the Response object echoes, and the conversation to store. */
import { isServerSamplingExtension } from '../../src/core/server-sampling-extensions.js';
import type { ChatInput, ResponseFormat } from '../../src/core/chat-request.js';
import { gatewayError, invalidRequest } from '../../src/core/gateway-error.js';
import type { Warning } from '../../src/core/warning.js';
import type { BodyValidators } from '../shared/body-validator.js';
import type { RouteToolCaches } from '../shared/memoise-known-list.js';
import { allowedOf } from '../shared/allowed-tools.js';
import { ConversationBuilder } from './conversation-builder.js';
import { includeWarnings, logprobsRequest } from './include-warnings.js';
import { parseResponsesToolChoice, parseResponsesTools, type ToolKinds } from './parse-responses-tools.js';
import type { ResponseEcho } from './response-object.js';
import { checkServerSideFeatures } from './server-side-features.js';
import type { StoredResponses } from './stored-responses.js';

/** Where earlier responses and their items are looked up (the shared store, or a WebSocket connection's first). */
export type StoredResponseLookup = Pick<StoredResponses, 'get' | 'getItem'>;
import { responsesRequestSchema, type ResponsesBody, type WireInputItem } from './responses-request-schema.js';

export type ParsedResponsesRequest = {
  input: ChatInput;
  stream: boolean;
  echo: ResponseEcho;
  toolKinds: ToolKinds;
  /** Request features that were dropped; they end up in the response's diagnostics. */
  warnings: Warning[];
  /** Earlier items (from previous_response_id) plus this request's input, as wire items. */
  conversation: WireInputItem[];
};

function responseFormatOf(format: NonNullable<ResponsesBody['text']>['format']): ResponseFormat | undefined {
  if (!format) return undefined;
  switch (format.type) {
    case 'json_schema': {
      // Responses puts name/schema/strict flat on the format, unlike Chat's nested json_schema.
      if (typeof format.name !== 'string') throw invalidRequest("Missing required parameter: 'text.format.name'.", 'text.format.name');
      const result: ResponseFormat = { type: 'json_schema', name: format.name };
      if (format.schema && typeof format.schema === 'object') result.schema = format.schema as Record<string, unknown>;
      if (typeof format.description === 'string') result.description = format.description;
      if (typeof format.strict === 'boolean' || format.strict === null) result.strict = format.strict as boolean | null;
      return result;
    }
    case 'json_object':
      return { type: 'json_object' };
    default:
      // `text` is the default: sending it upstream would only earn warnings from non-OpenAI providers.
      return undefined;
  }
}

/**
 * The request's input items with every `item_reference` replaced by the item it names (the AI SDK's
 * OpenAI provider sends earlier output items this way whenever `store` is on).
 */
async function inputItemsOf(input: ResponsesBody['input'], store: StoredResponseLookup): Promise<WireInputItem[]> {
  if (input === undefined) return [];
  if (typeof input === 'string') return [{ type: 'message', role: 'user', content: input }];
  if (!input.some((item) => item.type === 'item_reference')) return input;
  return Promise.all(input.map((item, index) => (item.type === 'item_reference' ? referencedItem(item, `input[${index}]`, store) : item)));
}

async function referencedItem(reference: WireInputItem, param: string, store: StoredResponseLookup): Promise<WireInputItem> {
  const id = reference.id;
  if (typeof id !== 'string') throw invalidRequest(`Missing required parameter: '${param}.id'.`, `${param}.id`);
  const item = await store.getItem(id);
  if (!item) {
    throw gatewayError('item_not_found', {
      message: `Item with id '${id}' not found. This gateway resolves item_reference from the responses it keeps (not those created with store: false) for state.responseTtlSeconds (one hour by default).`,
      param: `${param}.id`,
    });
  }
  return item;
}

async function historyOf(body: ResponsesBody, store: StoredResponseLookup): Promise<readonly WireInputItem[]> {
  const id = body.previous_response_id;
  if (typeof id !== 'string') return [];
  const stored = await store.get(id);
  if (!stored) {
    throw gatewayError('previous_response_not_found', {
      message: `Previous response with id '${id}' not found. This gateway keeps recent responses (not those created with store: false) for state.responseTtlSeconds (one hour by default).`,
      param: 'previous_response_id',
    });
  }
  return [...stored.input, ...(stored.response.output as WireInputItem[])];
}

function echoOf(body: ResponsesBody): ResponseEcho {
  const text: Record<string, unknown> = { format: body.text?.format ?? { type: 'text' } };
  if (body.text && typeof body.text.verbosity === 'string') text.verbosity = body.text.verbosity;
  return {
    instructions: body.instructions ?? null,
    tools: body.tools ?? [],
    toolChoice: body.tool_choice ?? 'auto',
    parallelToolCalls: body.parallel_tool_calls ?? true,
    temperature: body.temperature ?? null,
    topP: body.top_p ?? null,
    maxOutputTokens: body.max_output_tokens ?? null,
    previousResponseId: body.previous_response_id ?? null,
    reasoning: body.reasoning ?? null,
    text,
    store: body.store !== false,
    user: body.user ?? undefined,
    metadata: body.metadata ?? {},
  };
}

export async function parseResponsesRequest(
  raw: unknown,
  store: StoredResponseLookup,
  validators: BodyValidators,
  caches?: RouteToolCaches,
): Promise<ParsedResponsesRequest> {
  const body = validators.for<ResponsesBody>(responsesRequestSchema)(raw, caches);
  const featureWarnings = [...checkServerSideFeatures(body), ...includeWarnings((body as Record<string, unknown>).include)];
  const [history, items] = await Promise.all([historyOf(body, store), inputItemsOf(body.input, store)]);
  if (items.length === 0 && history.length === 0) throw invalidRequest("Missing required parameter: 'input'.", 'input');

  const conversation = new ConversationBuilder();
  // Stored items were validated when they arrived (or are our own output).
  for (const item of history) conversation.add(item, 'previous_response_id');
  for (const [index, item] of items.entries()) conversation.add(item, `input[${index}]`);
  // Instructions are not inherited through previous_response_id (OpenAI's rule): only this request's count.
  if (typeof body.instructions === 'string' && body.instructions !== '')
    conversation.prepend({ role: 'system', content: body.instructions });

  const tools = parseResponsesTools(body.tools, caches);
  const choice = parseResponsesToolChoice(body.tool_choice);
  const input: ChatInput = { model: body.model, messages: conversation.result() };
  const offered = choice.allowedTools ? allowedOf(tools.tools, choice.allowedTools) : tools.tools;
  if (offered.length) input.tools = offered;
  if (choice.toolChoice) input.toolChoice = choice.toolChoice;
  if (body.parallel_tool_calls !== undefined) input.parallelToolCalls = body.parallel_tool_calls;
  if (body.max_output_tokens !== undefined) input.maxOutputTokens = body.max_output_tokens;
  if (body.temperature !== undefined) input.temperature = body.temperature;
  if (body.top_p !== undefined) input.topP = body.top_p;
  if (body.reasoning && body.reasoning.effort !== undefined) input.reasoningEffort = body.reasoning.effort;
  const responseFormat = responseFormatOf(body.text?.format);
  if (responseFormat) input.responseFormat = responseFormat;
  if (body.user !== undefined) input.user = body.user;
  // OpenAI's Chat API takes safety_identifier too; other providers turn it into a warning.
  if (typeof body.safety_identifier === 'string') input.openaiExtras = { safety_identifier: body.safety_identifier };
  const logprobs = logprobsRequest((body as Record<string, unknown>).include, body.top_logprobs);
  if (logprobs) input.openaiExtras = { ...input.openaiExtras, ...logprobs };
  // vLLM's, SGLang's and llama-server's own sampling fields (top_k, min_p, …), as the Chat route passes them on.
  for (const field in body)
    if (isServerSamplingExtension(field) && (body as Record<string, unknown>)[field] !== undefined)
      input.openaiExtras = { ...input.openaiExtras, [field]: (body as Record<string, unknown>)[field] };

  return {
    input,
    stream: body.stream === true,
    echo: echoOf(body),
    toolKinds: tools.kinds,
    warnings: [...featureWarnings, ...tools.warnings, ...choice.warnings, ...conversation.warnings],
    conversation: [...history, ...items],
  };
}
