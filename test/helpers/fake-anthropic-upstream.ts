/**
 * A scripted fake Anthropic Messages API on 127.0.0.1:0: replies come from a per-test queue (or a
 * fallback function), are streamed as the real SSE event sequence (or sent as one `message` object when
 * the request says `"stream": false`), and every request is recorded.
 * Wire formats: https://docs.anthropic.com/en/api/messages-streaming and https://docs.anthropic.com/en/api/messages
 */
import type http from 'node:http';
import { anthropicToolRefusal } from './anthropic-tool-definitions.js';
import { anthropicMessagesRefusal } from './anthropic-message-rules.js';
import { anthropicToolResultRefusal } from './anthropic-tool-result-content.js';
import { grammarSchemaRefusal } from './grammar-schema-refusal.js';
import { sleep, splitIntoPieces, startLoopbackServer, type RecordedRequest } from './loopback-server.js';

export type FakeAnthropicBlock =
  | { type: 'text'; text: string }
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'redacted_thinking'; data: string }
  /** `input` as a string is sent verbatim (so a test can stream malformed JSON). */
  | { type: 'tool_use'; id?: string; name: string; input: Record<string, unknown> | string };

export type FakeAnthropicUsage = {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens?: number;
  cache_read_input_tokens?: number;
};

/**
 * How a streamed reply breaks off after `afterEvents` SSE frames. A whole (non-streaming) reply breaks
 * off the same way half-way through its JSON body, and an error event becomes the whole body.
 */
export type FakeStreamInterruption =
  | { type: 'error-event'; afterEvents: number; errorType: string; message: string }
  /** The body ends cleanly, without `message_stop`. */
  | { type: 'end'; afterEvents: number }
  /** The socket is destroyed mid-body. */
  | { type: 'destroy'; afterEvents: number }
  /** Nothing more is sent; the response stays open until the client goes away. */
  | { type: 'hold'; afterEvents: number };

export type FakeAnthropicMessageReply = {
  type: 'message';
  id?: string;
  /** Defaults to the request's `model`. */
  model?: string;
  content: FakeAnthropicBlock[];
  /** Defaults to `tool_use` when a tool_use block is present, else `end_turn`. */
  stopReason?: string | null;
  stopSequence?: string | null;
  usage?: FakeAnthropicUsage;
  /** Characters per text, thinking and partial_json delta (default 3). */
  fragmentSize?: number;
  headers?: Record<string, string>;
  /** Wait before sending headers (for headers timeouts). */
  delayMs?: number;
  /** Wait between SSE frames. */
  frameDelayMs?: number;
  interruption?: FakeStreamInterruption;
};

export type FakeAnthropicErrorReply = {
  type: 'http-error';
  status: number;
  /** Defaults from the status, as Anthropic does (429 → rate_limit_error, 529 → overloaded_error, …). */
  errorType?: string;
  message?: string;
  headers?: Record<string, string>;
  delayMs?: number;
};

/** Any status and body, verbatim (a proxy's HTML page, a JSON body that is no message). */
export type FakeAnthropicRawReply = { type: 'raw'; status: number; contentType?: string; body: string };

export type FakeAnthropicReply = FakeAnthropicMessageReply | FakeAnthropicErrorReply | FakeAnthropicRawReply;

export type FakeAnthropicModel = { id: string; created_at: string; display_name?: string };

export type FakeAnthropicUpstream = {
  url: string;
  port: number;
  /** Every request, in arrival order (including GET /v1/models). */
  requests: RecordedRequest[];
  /** Only the POST /v1/messages requests. */
  messageRequests(): RecordedRequest[];
  /** Replies for the next POST /v1/messages requests, in order. */
  enqueue(...replies: FakeAnthropicReply[]): void;
  /** Decides the reply once the queue is empty (e.g. "tool call unless the last turn is a tool result"). */
  setFallback(respond: ((request: RecordedRequest) => FakeAnthropicReply) | undefined): void;
  /** Served by GET /v1/models. */
  models: FakeAnthropicModel[];
  nextRequest(): Promise<RecordedRequest>;
  close(): Promise<void>;
};

const errorTypesByStatus: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  529: 'overloaded_error',
};

export function anthropicErrorEnvelope(errorType: string, message: string) {
  return { type: 'error', error: { type: errorType, message } };
}

let replyCounter = 0;

/** Gives a reply, and each of its tool calls, a fresh id (unless the script chose one). */
function withIds(reply: FakeAnthropicMessageReply): FakeAnthropicMessageReply {
  const number = ++replyCounter;
  return {
    ...reply,
    id: reply.id ?? `msg_fake_${number}`,
    content: reply.content.map((block, index) =>
      block.type === 'tool_use' ? { ...block, id: block.id ?? `toolu_fake_${number}_${index}` } : block,
    ),
  };
}

const defaultUsage: FakeAnthropicUsage = { input_tokens: 10, output_tokens: 5 };

function stopReasonOf(reply: FakeAnthropicMessageReply): string | null {
  if (reply.stopReason !== undefined) return reply.stopReason;
  return reply.content.some((block) => block.type === 'tool_use') ? 'tool_use' : 'end_turn';
}

/** Usage as `message_start` reports it: the prompt side is known, output has barely begun. */
function startUsage(usage: FakeAnthropicUsage) {
  return {
    input_tokens: usage.input_tokens,
    cache_creation_input_tokens: usage.cache_creation_input_tokens ?? 0,
    cache_read_input_tokens: usage.cache_read_input_tokens ?? 0,
    output_tokens: 1,
  };
}

function toolInputText(block: FakeAnthropicBlock & { type: 'tool_use' }): string {
  return typeof block.input === 'string' ? block.input : JSON.stringify(block.input);
}

/** The SSE event payloads (each carries its own `type`) of a streamed reply, in wire order. */
export function renderAnthropicStreamEvents(reply: FakeAnthropicMessageReply, requestModel = 'claude-fake'): Record<string, unknown>[] {
  const size = reply.fragmentSize ?? 3;
  const usage = reply.usage ?? defaultUsage;
  const message = {
    id: reply.id ?? 'msg_fake',
    type: 'message',
    role: 'assistant',
    model: reply.model ?? requestModel,
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage: startUsage(usage),
  };
  const events: Record<string, unknown>[] = [{ type: 'message_start', message }, { type: 'ping' }];
  reply.content.forEach((block, index) => {
    const start = (contentBlock: Record<string, unknown>) =>
      events.push({ type: 'content_block_start', index, content_block: contentBlock });
    const delta = (value: Record<string, unknown>) => events.push({ type: 'content_block_delta', index, delta: value });
    switch (block.type) {
      case 'text':
        start({ type: 'text', text: '' });
        for (const piece of splitIntoPieces(block.text, size)) delta({ type: 'text_delta', text: piece });
        break;
      case 'thinking':
        start({ type: 'thinking', thinking: '', signature: '' });
        for (const piece of splitIntoPieces(block.thinking, size)) delta({ type: 'thinking_delta', thinking: piece });
        delta({ type: 'signature_delta', signature: block.signature });
        break;
      case 'redacted_thinking':
        start({ type: 'redacted_thinking', data: block.data });
        break;
      case 'tool_use':
        start({ type: 'tool_use', id: block.id ?? `toolu_fake_${index}`, name: block.name, input: {} });
        // The real API opens every tool_use with an empty fragment.
        delta({ type: 'input_json_delta', partial_json: '' });
        for (const piece of splitIntoPieces(toolInputText(block), size)) delta({ type: 'input_json_delta', partial_json: piece });
        break;
    }
    events.push({ type: 'content_block_stop', index });
  });
  events.push(
    {
      type: 'message_delta',
      delta: { stop_reason: stopReasonOf(reply), stop_sequence: reply.stopSequence ?? null },
      usage: { output_tokens: usage.output_tokens },
    },
    { type: 'message_stop' },
  );
  return events;
}

/** One SSE frame as Anthropic writes it: an `event:` line naming the type, then the JSON. */
export function toSseFrame(event: Record<string, unknown>): string {
  return `event: ${String(event.type)}\ndata: ${JSON.stringify(event)}\n\n`;
}

/** The non-streaming Messages response for the same reply. */
function renderAnthropicMessage(reply: FakeAnthropicMessageReply, requestModel: string): Record<string, unknown> {
  const usage = reply.usage ?? defaultUsage;
  // A call streamed without argument fragments is an empty `input` object when whole.
  const input = (block: FakeAnthropicBlock & { type: 'tool_use' }): unknown => (block.input === '' ? {} : JSON.parse(toolInputText(block)));
  const content = reply.content.map((block, index) =>
    block.type === 'tool_use' ? { type: 'tool_use', id: block.id ?? `toolu_fake_${index}`, name: block.name, input: input(block) } : block,
  );
  return {
    id: reply.id ?? 'msg_fake',
    type: 'message',
    role: 'assistant',
    model: reply.model ?? requestModel,
    content,
    stop_reason: stopReasonOf(reply),
    stop_sequence: reply.stopSequence ?? null,
    usage: { ...startUsage(usage), output_tokens: usage.output_tokens },
  };
}

function canWrite(response: http.ServerResponse): boolean {
  return !response.destroyed && !response.writableEnded;
}

/** Resolves once the chunk is handed to the socket, so a later `destroy` cannot drop it. */
function write(response: http.ServerResponse, chunk: string): Promise<void> {
  return new Promise((resolve) => response.write(chunk, () => resolve()));
}

async function sendHttpError(reply: FakeAnthropicErrorReply, response: http.ServerResponse): Promise<void> {
  if (reply.delayMs) await sleep(reply.delayMs);
  if (!canWrite(response)) return;
  const errorType = reply.errorType ?? errorTypesByStatus[reply.status] ?? 'api_error';
  response.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
  response.end(JSON.stringify(anthropicErrorEnvelope(errorType, reply.message ?? `fake ${errorType}`)));
}

/** Ends a reply that breaks off without an error: cleanly, by dropping the connection, or by falling silent. */
async function breakOff(
  response: http.ServerResponse,
  interruption: Exclude<FakeStreamInterruption, { type: 'error-event' }>,
): Promise<void> {
  switch (interruption.type) {
    case 'end':
      response.end();
      return;
    case 'destroy':
      response.socket?.destroy();
      return;
    case 'hold':
      await new Promise((resolve) => response.once('close', resolve));
      return;
  }
}

/**
 * The non-streaming answer. An error event becomes the error envelope as the whole body of the 200
 * (as a proxy that already sent its headers does; Anthropic itself answers with the error status).
 */
async function sendWholeMessage(reply: FakeAnthropicMessageReply, model: string, response: http.ServerResponse): Promise<void> {
  const interruption = reply.interruption;
  response.writeHead(200, { 'content-type': 'application/json', ...reply.headers });
  if (interruption?.type === 'error-event') {
    response.end(JSON.stringify(anthropicErrorEnvelope(interruption.errorType, interruption.message)));
    return;
  }
  const text = JSON.stringify(renderAnthropicMessage(reply, model));
  if (!interruption) {
    response.end(text);
    return;
  }
  await write(response, text.slice(0, Math.floor(text.length / 2)));
  await breakOff(response, interruption);
}

async function sendMessage(scripted: FakeAnthropicMessageReply, recorded: RecordedRequest, response: http.ServerResponse): Promise<void> {
  const reply = withIds(scripted);
  if (reply.delayMs) await sleep(reply.delayMs);
  if (!canWrite(response)) return;
  const body = (recorded.body ?? {}) as { model?: string; stream?: boolean };
  const model = typeof body.model === 'string' ? body.model : 'claude-fake';
  if (body.stream !== true) return sendWholeMessage(reply, model, response);
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...reply.headers });
  const events = renderAnthropicStreamEvents(reply, model);
  const interruption = reply.interruption;
  const limit = interruption ? Math.min(interruption.afterEvents, events.length) : events.length;
  for (const event of events.slice(0, limit)) {
    if (!canWrite(response)) return;
    await write(response, toSseFrame(event));
    if (reply.frameDelayMs) await sleep(reply.frameDelayMs);
  }
  if (!canWrite(response)) return;
  if (interruption?.type === 'error-event') response.end(toSseFrame(anthropicErrorEnvelope(interruption.errorType, interruption.message)));
  else if (interruption) await breakOff(response, interruption);
  else response.end();
}

/**
 * Models that take adaptive thinking only (Claude Opus 4.7, the Claude 5 models, Mythos): the budget form is
 * refused before any generation, in the words users quote (memberjunction's UsesAdaptiveThinking notes, seen
 * on claude-sonnet-5; Bedrock's adaptive-thinking page: "Manual extended thinking … is not supported on these
 * models and will return a 400 error").
 */
const adaptiveOnlyModels: readonly string[] = ['claude-opus-4-7', 'claude-sonnet-5', 'claude-opus-5', 'claude-mythos-preview'];

/**
 * What Claude's version refuses before any generation: the budget form of thinking on the models above;
 * any sampling field on them ("`temperature` is deprecated for this model.", quoted in Comfy-Org/ComfyUI#13923
 * and sipeed/picoclaw#2939); temperature and top_p together on Claude 4 models ("`temperature` and `top_p`
 * cannot both be specified for this model. Please use only one.", quoted by LiteLLM users and proxies).
 */
function versionRefusal(recorded: RecordedRequest): FakeAnthropicErrorReply | undefined {
  const body = (recorded.body ?? {}) as {
    model?: unknown;
    thinking?: { type?: unknown };
    temperature?: unknown;
    top_p?: unknown;
    top_k?: unknown;
  };
  if (typeof body.model !== 'string') return undefined;
  const refuse = (message: string): FakeAnthropicErrorReply => ({ type: 'http-error', status: 400, message });
  if (adaptiveOnlyModels.includes(body.model)) {
    if (body.thinking?.type === 'enabled')
      return refuse(
        '"thinking.type.enabled" is not supported for this model. Use "thinking.type.adaptive" and "output_config.effort" to control thinking behavior.',
      );
    const sampled = (['temperature', 'top_p', 'top_k'] as const).find((field) => body[field] !== undefined);
    if (sampled) return refuse(`\`${sampled}\` is deprecated for this model.`);
  }
  if (/^claude-(opus|sonnet|haiku)-4/.test(body.model) && body.temperature !== undefined && body.top_p !== undefined)
    return refuse('`temperature` and `top_p` cannot both be specified for this model. Please use only one.');
  return undefined;
}

/** A response format's schema outside the subset Claude's grammar compiler takes (grammar-schema-refusal.ts). */
function schemaRefusal(recorded: RecordedRequest): FakeAnthropicErrorReply | undefined {
  const body = (recorded.body ?? {}) as { output_config?: { format?: { schema?: unknown } } };
  const message = grammarSchemaRefusal(body.output_config?.format?.schema, 'output_config.format.schema');
  return message ? { type: 'http-error', status: 400, message } : undefined;
}

/**
 * Claude's explicit limits on one request's strict schemas (structured outputs, "Schema complexity limits"):
 * 20 strict tools, 24 optional parameters and 16 parameters with union types across every strict tool schema
 * and the JSON output schema, nested objects and array items included. The messages are the ones users quote:
 * "Too many strict tools" (camel-ai/camel#4171), "Schemas contains too many optional parameters (87), which
 * would make grammar compilation inefficient. Reduce the number of optional parameters in your tool schemas
 * (limit: 24)." (elie222/inbox-zero#2323); the union one is written after the latter.
 */
function strictComplexityRefusal(recorded: RecordedRequest): FakeAnthropicErrorReply | undefined {
  const body = (recorded.body ?? {}) as {
    tools?: { strict?: unknown; input_schema?: unknown }[];
    output_config?: { format?: { schema?: unknown } };
  };
  const strictSchemas = (body.tools ?? []).filter((tool) => tool.strict === true).map((tool) => tool.input_schema);
  const strictTools = strictSchemas.length;
  if (body.output_config?.format?.schema !== undefined) strictSchemas.push(body.output_config.format.schema);
  let optional = 0;
  let unions = 0;
  const visit = (schema: unknown, isParameter: boolean): void => {
    if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return;
    const node = schema as Record<string, unknown>;
    if (isParameter && ((Array.isArray(node.anyOf) && node.anyOf.length > 0) || (Array.isArray(node.type) && node.type.length > 1)))
      unions++;
    const properties = (node.properties ?? {}) as Record<string, unknown>;
    const required = Array.isArray(node.required) ? node.required : [];
    for (const [name, property] of Object.entries(properties)) {
      if (!required.includes(name)) optional++;
      visit(property, true);
    }
    for (const entry of [...(Array.isArray(node.anyOf) ? node.anyOf : []), ...(Array.isArray(node.allOf) ? node.allOf : [])])
      visit(entry, true);
    for (const definitions of [node.$defs, node.definitions])
      for (const entry of Object.values((definitions ?? {}) as Record<string, unknown>)) visit(entry, true);
    visit(node.items, true);
  };
  for (const schema of strictSchemas) visit(schema, false);
  const refuse = (message: string): FakeAnthropicErrorReply => ({ type: 'http-error', status: 400, message });
  if (strictTools > 20) return refuse(`Too many strict tools (${strictTools}). Reduce the number of strict tools (limit: 20).`);
  if (optional > 24)
    return refuse(
      `Schemas contains too many optional parameters (${optional}), which would make grammar compilation inefficient. Reduce the number of optional parameters in your tool schemas (limit: 24).`,
    );
  if (unions > 16)
    return refuse(
      `Schemas contains too many parameters with union types (${unions}), which would make grammar compilation inefficient. Reduce the number of parameters with union types in your tool schemas (limit: 16).`,
    );
  return undefined;
}

/**
 * How a fake Claude's grammar compiler gives up past the explicit limits: Anthropic documents none of it ("Schema
 * complexity limits": schemas within every explicit limit can still be "too complex for compilation"), so a test
 * sets the size, in characters of the strict schemas' JSON, past which the fake refuses, and the words:
 * `too-complex` is the docs' "Schema is too complex for compilation.", `too-large` the 400 users quote,
 * "The compiled grammar is too large, which would cause performance issues. Simplify your tool schemas or reduce
 * the number of strict tools." (anthropics/anthropic-sdk-python#1185; pome-sh/digital-twins#527 met it with a
 * 7,354-byte schema).
 */
export type FakeGrammarLimit = { characters: number; wording: 'too-complex' | 'too-large' };

function grammarLimitRefusal(recorded: RecordedRequest, limit: FakeGrammarLimit | undefined): FakeAnthropicErrorReply | undefined {
  if (!limit) return undefined;
  const body = (recorded.body ?? {}) as {
    tools?: { strict?: unknown; input_schema?: unknown }[];
    output_config?: { format?: { schema?: unknown } };
  };
  const compiled = [
    ...(body.tools ?? []).filter((tool) => tool.strict === true).map((tool) => tool.input_schema),
    body.output_config?.format?.schema,
  ];
  const size = compiled.reduce<number>((total, schema) => total + (schema === undefined ? 0 : JSON.stringify(schema).length), 0);
  if (size <= limit.characters) return undefined;
  const message =
    limit.wording === 'too-complex'
      ? 'Schema is too complex for compilation.'
      : 'The compiled grammar is too large, which would cause performance issues. Simplify your tool schemas or reduce the number of strict tools.';
  return { type: 'http-error', status: 400, message };
}

/**
 * Claude models from before structured outputs (Claude 3.x, Sonnet 4, Opus 4 and 4.1: the structured-outputs
 * docs list Claude 4.5 and later), which refuse a strict tool: "'claude-sonnet-4-20250514' does not support
 * strict tools." (the 400 invalid_request_error quoted in eigent-ai/eigent#1649).
 */
const modelsWithoutStrictTools = /^claude-(3|(opus|sonnet)-4(-1)?(-\d{8})?$)/;

/**
 * A strict tool Claude cannot compile: on a model without strict tools, or with an input schema outside the
 * grammar subset, named by the tool's place as Claude names it ("tools.1.custom: For 'array' type, property
 * 'maxItems' is not supported", quoted from Claude behind Bedrock in BerriAI/litellm#39115). A tool without
 * strict is not compiled, whatever its schema.
 */
function strictToolRefusal(recorded: RecordedRequest): FakeAnthropicErrorReply | undefined {
  const body = (recorded.body ?? {}) as { model?: unknown; tools?: { strict?: unknown; input_schema?: unknown }[] };
  if (!Array.isArray(body.tools)) return undefined;
  for (const [index, tool] of body.tools.entries()) {
    if (tool.strict !== true) continue;
    if (typeof body.model === 'string' && modelsWithoutStrictTools.test(body.model))
      return { type: 'http-error', status: 400, message: `'${body.model}' does not support strict tools.` };
    const message = grammarSchemaRefusal(tool.input_schema, `tools.${index}.custom`);
    if (message) return { type: 'http-error', status: 400, message };
  }
  return undefined;
}

/**
 * `context_management` without its beta in `anthropic-beta` (context-management-2025-06-27 for context
 * editing, compact-2026-01-12 for compaction): the 400 Claude Code users quote, "context_management: Extra
 * inputs are not permitted" (anthropics/claude-code#14135; Wei-Shaw/sub2api#2833 traces it to the missing beta).
 */
function contextManagementRefusal(recorded: RecordedRequest): FakeAnthropicErrorReply | undefined {
  const body = (recorded.body ?? {}) as { context_management?: { edits?: { type?: unknown }[] } };
  if (body.context_management === undefined) return undefined;
  const betas = String(recorded.headers['anthropic-beta'] ?? '')
    .split(',')
    .map((beta) => beta.trim());
  const edits = body.context_management.edits ?? [];
  const needed =
    edits.length === 0
      ? ['context-management-2025-06-27']
      : edits.map((edit) => (String(edit.type).startsWith('compact_') ? 'compact-2026-01-12' : 'context-management-2025-06-27'));
  const covered = needed.every((beta) => betas.includes(beta));
  return covered ? undefined : { type: 'http-error', status: 400, message: 'context_management: Extra inputs are not permitted' };
}

/** A tool result's content, or a conversation, Claude's API does not take (anthropic-tool-result-content.ts, anthropic-message-rules.ts). */
function toolResultRefusal(recorded: RecordedRequest): FakeAnthropicErrorReply | undefined {
  const message =
    anthropicToolResultRefusal((recorded.body as { messages?: unknown } | undefined)?.messages) ?? anthropicMessagesRefusal(recorded.body);
  return message ? { type: 'http-error', status: 400, message } : undefined;
}

/** A tool definition Claude's API does not take (anthropic-tool-definitions.ts). */
function toolDefinitionRefusal(recorded: RecordedRequest): FakeAnthropicErrorReply | undefined {
  const betas = String(recorded.headers['anthropic-beta'] ?? '')
    .split(',')
    .map((beta) => beta.trim());
  const message = anthropicToolRefusal((recorded.body as { tools?: unknown } | undefined)?.tools, betas);
  return message ? { type: 'http-error', status: 400, message } : undefined;
}

export async function startFakeAnthropicUpstream(
  options: {
    models?: FakeAnthropicModel[];
    fallback?: (request: RecordedRequest) => FakeAnthropicReply;
    /** Where the grammar compiler gives up; none by default (FakeGrammarLimit). */
    grammarLimit?: FakeGrammarLimit;
  } = {},
): Promise<FakeAnthropicUpstream> {
  const queue: FakeAnthropicReply[] = [];
  let fallback = options.fallback;
  const state = { models: options.models ?? [{ id: 'claude-fake-1', created_at: '2025-01-01T00:00:00Z' }] };
  const server = await startLoopbackServer(async (recorded, response) => {
    // Writes after the client went away must not crash the fake.
    response.on('error', () => undefined);
    const path = recorded.path.split('?')[0];
    if (recorded.method === 'GET' && path === '/v1/models') {
      response.writeHead(200, { 'content-type': 'application/json' });
      const data = state.models.map((model) => ({ type: 'model', display_name: model.id, ...model }));
      response.end(JSON.stringify({ data, has_more: false, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null }));
      return;
    }
    if (recorded.method !== 'POST' || path !== '/v1/messages') {
      await sendHttpError({ type: 'http-error', status: 404, message: `fake: no route ${recorded.method} ${path}` }, response);
      return;
    }
    const refused =
      toolDefinitionRefusal(recorded) ??
      toolResultRefusal(recorded) ??
      versionRefusal(recorded) ??
      schemaRefusal(recorded) ??
      strictToolRefusal(recorded) ??
      strictComplexityRefusal(recorded) ??
      grammarLimitRefusal(recorded, options.grammarLimit) ??
      contextManagementRefusal(recorded);
    if (refused) return sendHttpError(refused, response);
    const reply = queue.shift() ?? fallback?.(recorded);
    if (!reply) {
      await sendHttpError({ type: 'http-error', status: 500, errorType: 'api_error', message: 'fake: no scripted reply left' }, response);
      return;
    }
    switch (reply.type) {
      case 'http-error':
        return sendHttpError(reply, response);
      case 'raw':
        response.writeHead(reply.status, { 'content-type': reply.contentType ?? 'text/plain' });
        response.end(reply.body);
        return;
      case 'message':
        return sendMessage(reply, recorded, response);
    }
  });
  return {
    url: server.url,
    port: server.port,
    requests: server.requests,
    messageRequests: () => server.requests.filter((request) => request.path.split('?')[0] === '/v1/messages'),
    enqueue: (...replies) => queue.push(...replies),
    setFallback: (respond) => {
      fallback = respond;
    },
    get models() {
      return state.models;
    },
    set models(models) {
      state.models = models;
    },
    nextRequest: server.nextRequest,
    close: server.close,
  };
}
