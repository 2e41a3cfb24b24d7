/**
 * A scripted fake OpenAI API on 127.0.0.1:0: `POST /v1/chat/completions` (real SSE or JSON), `GET /v1/models`
 * and `POST /v1/embeddings`. Replies come from a per-test queue; every request is recorded.
 * Wire format: https://platform.openai.com/docs/api-reference/chat-streaming
 */
import type http from 'node:http';
import { sleep, splitIntoPieces, startLoopbackServer, type RecordedRequest } from './loopback-server.js';

export type FakeOpenAiToolCall = {
  /** Defaults to `call_fake_<reply>_<position>`. */
  id?: string;
  name: string;
  /** Sent as JSON text; an object is stringified (see the `arguments-as-object` quirk for sending it raw). */
  arguments: string | Record<string, unknown>;
};

/** Real-server deviations from the reference stream, one per flag. */
export type FakeOpenAiQuirk =
  /** The first fragment has the id and argument text but no name; the name follows in the second fragment. */
  | 'first-tool-delta-without-name'
  /** Each call's arguments arrive once, as a JSON object rather than text (some llama.cpp builds). */
  | 'arguments-as-object'
  /** Every call uses index 0 and is told apart only by its id (Gemini's compatible endpoint). */
  | 'index-collision'
  /** `id` and `type` repeated on every fragment. */
  | 'ids-on-every-fragment'
  /** The fragments of parallel calls alternate instead of arriving call by call. */
  | 'interleaved-calls';

export type FakeOpenAiUsage = { prompt_tokens: number; completion_tokens: number; total_tokens?: number; [key: string]: unknown };

export type FakeOpenAiChatReply = {
  type: 'chat';
  /** Text deltas: a string is split into `fragmentSize` pieces; an array is sent piece by piece, as given. */
  content?: string | string[];
  /**
   * A declined request's words, where OpenAI puts them instead of `content`
   * (https://platform.openai.com/docs/guides/structured-outputs#refusals): streamed as `delta.refusal` pieces
   * after a first delta of `"content":null,"refusal":""` (OpenAI's own capture,
   * test/fixtures/wire/openai/refusal-streamed.sse), whole as `message.refusal` with `content: null`. Their
   * tokens' log probabilities, when asked, are in `logprobs.refusal` (`content: null`), per chunk and whole
   * (ChatCompletion / ChatCompletionChunk `choices[].logprobs` in OpenAI's OpenAPI document).
   */
  refusal?: string | string[];
  reasoning?: string | string[];
  /** Which delta field carries the reasoning text (vLLM/DeepSeek use reasoning_content, OpenRouter reasoning). */
  reasoningField?: 'reasoning_content' | 'reasoning';
  toolCalls?: FakeOpenAiToolCall[];
  /** Defaults to `tool_calls` with calls, else `stop`; `null` sends no finish_reason at all. */
  finishReason?: string | null;
  /**
   * vLLM's `stop_reason` on the finishing choice, streamed or whole: the matched stop string, or the stop
   * token's id (ChatCompletionResponseChoice / ChatCompletionResponseStreamChoice in
   * vllm/entrypoints/openai/protocol.py). Left out when not given, as OpenAI's own API does.
   */
  stopReason?: string | number | null;
  /** Defaults to 11 prompt + 7 completion tokens; `null` sends no usage even when asked for it. */
  usage?: FakeOpenAiUsage | null;
  /**
   * A server that ignores `logprobs: true` and answers 200 without them (`"logprobs": null`), as
   * mistral.rs did (EricLBuehler/mistral.rs#1876) and vLLM does for `top_logprobs: null`
   * (vllm-project/vllm#47838: "returns 200 but silently omits generated-token logprobs").
   */
  ignoresLogprobs?: boolean;
  /** Characters per content, reasoning and argument fragment (default 3). */
  fragmentSize?: number;
  quirks?: FakeOpenAiQuirk[];
  /** Defaults to the request's model. */
  model?: string;
  headers?: Record<string, string>;
  /** Wait before the status line and headers (headers-timeout tests). */
  headersDelayMs?: number;
  /** Pause after each SSE frame. */
  chunkDelayMs?: number;
  /** Sends `data: {"error":…}` after this many frames, then ends the body (no [DONE]). */
  streamError?: { afterChunks: number; message: string; type?: string; code?: string | null };
  /** Destroys the socket after this many frames. */
  cutAfterChunks?: number;
  /** Ends the body cleanly after this many frames, without finish_reason or [DONE]. */
  endAfterChunks?: number;
  /** Stops sending after this many frames and keeps the response open until the client goes away. */
  holdAfterChunks?: number;
};

/** An HTTP error with OpenAI's envelope `{"error":{message,type,param,code}}`. */
export type FakeOpenAiErrorReply = {
  type: 'http-error';
  status: number;
  message: string;
  errorType?: string;
  code?: string | null;
  param?: string | null;
  headers?: Record<string, string>;
  headersDelayMs?: number;
};

/** Any status and body, verbatim (a proxy's HTML page, a truncated JSON body). */
export type FakeOpenAiRawReply = { type: 'raw'; status: number; contentType?: string; body: string; headersDelayMs?: number };

/** The connection is reset after the request arrived, before any status line (a crashed or restarting server). */
export type FakeOpenAiResetReply = { type: 'reset' };

export type FakeOpenAiReply = FakeOpenAiChatReply | FakeOpenAiErrorReply | FakeOpenAiRawReply | FakeOpenAiResetReply;

/**
 * One `POST /v1/embeddings` reply: the vectors after a wait (a busy server), or a failure. OpenAI answers an
 * embeddings error in the same `{ error }` envelope as a chat's (https://platform.openai.com/docs/guides/error-codes).
 */
export type FakeOpenAiEmbeddingsReply =
  { type: 'embeddings'; headersDelayMs?: number } | FakeOpenAiErrorReply | FakeOpenAiRawReply | FakeOpenAiResetReply;

export type FakeOpenAiUpstream = {
  /** The server root; OpenAI-kind providers are configured with `${url}/v1`. */
  url: string;
  port: number;
  /** Every request, in arrival order. */
  requests: RecordedRequest[];
  /** Only the `POST /v1/chat/completions` requests. */
  chatRequests(): RecordedRequest[];
  /** The body of the latest chat request (what the adapter sent upstream). */
  lastChatBody(): Record<string, unknown>;
  /** Replies for the next chat requests, in order. */
  enqueue(...replies: FakeOpenAiReply[]): void;
  /** Decides the reply to each chat request the queue has none for (scripted agent sessions). */
  respondWith(responder: ((request: RecordedRequest) => FakeOpenAiReply) | undefined): void;
  /** Replies for the next `GET /v1/models` requests; an empty queue lists `models`. */
  enqueueModels(...replies: (FakeOpenAiErrorReply | FakeOpenAiRawReply)[]): void;
  /** Replies for the next `POST /v1/embeddings` requests; an empty queue embeds at once. */
  enqueueEmbeddings(...replies: FakeOpenAiEmbeddingsReply[]): void;
  /** Only the `POST /v1/embeddings` requests. */
  embeddingRequests(): RecordedRequest[];
  /** Served by `GET /v1/models`. */
  models: string[];
  nextRequest(): Promise<RecordedRequest>;
  /** Resolves once the client went away from `request` before its response ended. */
  waitForAbort(request: RecordedRequest, timeoutMs?: number): Promise<void>;
  /**
   * `false`: embeddings replies carry `"usage": null`, as OPEA's TEI wrapper sends them
   * (https://github.com/opea-project/GenAIComps/issues/926; OVH's endpoints leave it out, ovh/public-cloud-roadmap#935).
   */
  embeddingUsage: boolean;
  close(): Promise<void>;
};

export const defaultUsage: FakeOpenAiUsage = { prompt_tokens: 11, completion_tokens: 7 };
let replyCounter = 0;

/** Deterministic, so tests can assert exact vectors. */
export function fakeOpenAiEmbedding(input: unknown, dimensions: number): number[] {
  const length = typeof input === 'string' ? input.length : Array.isArray(input) ? input.length : 1;
  return Array.from({ length: dimensions }, (_, index) => (length + index) / 4);
}

/** OpenAI's base64 embedding encoding: little-endian float32 bytes. */
function encodeFloat32Base64(vector: number[]): string {
  const bytes = Buffer.alloc(vector.length * 4);
  vector.forEach((value, index) => bytes.writeFloatLE(value, index * 4));
  return bytes.toString('base64');
}

function argumentsText(call: FakeOpenAiToolCall): string {
  return typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);
}

function piecesOf(value: string | string[] | undefined, size: number): string[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : splitIntoPieces(value, size);
}

type ToolCallDelta = Record<string, unknown>;

/** The tool-call fragments of a reply, each the `tool_calls` array of one delta, in wire order. */
function toolCallDeltas(calls: (FakeOpenAiToolCall & { id: string })[], size: number, quirks: Set<FakeOpenAiQuirk>): ToolCallDelta[][] {
  const perCall = calls.map((call, position) => {
    const index = quirks.has('index-collision') ? 0 : position;
    const fragments: ToolCallDelta[] = [];
    const repeat = quirks.has('ids-on-every-fragment') ? { id: call.id, type: 'function' } : {};
    if (quirks.has('arguments-as-object')) {
      const parsed = typeof call.arguments === 'string' ? (JSON.parse(call.arguments) as unknown) : call.arguments;
      fragments.push({ index, id: call.id, type: 'function', function: { name: call.name, arguments: parsed } });
      return fragments;
    }
    const pieces = splitIntoPieces(argumentsText(call), size);
    if (quirks.has('first-tool-delta-without-name')) {
      fragments.push({ index, id: call.id, type: 'function', function: { arguments: pieces.shift() ?? '' } });
      fragments.push({ index, ...repeat, function: { name: call.name } });
    } else {
      fragments.push({ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } });
    }
    for (const piece of pieces) fragments.push({ index, ...repeat, function: { arguments: piece } });
    return fragments;
  });
  if (!quirks.has('interleaved-calls')) return perCall.flat().map((fragment) => [fragment]);
  const interleaved: ToolCallDelta[][] = [];
  for (let step = 0; perCall.some((fragments) => step < fragments.length); step++) {
    for (const fragments of perCall) {
      const fragment = fragments[step];
      if (fragment) interleaved.push([fragment]);
    }
  }
  return interleaved;
}

function withIds(reply: FakeOpenAiChatReply): (FakeOpenAiToolCall & { id: string })[] {
  const number = ++replyCounter;
  return (reply.toolCalls ?? []).map((call, position) => ({ ...call, id: call.id ?? `call_fake_${number}_${position}` }));
}

function finishReasonOf(reply: FakeOpenAiChatReply): string | null {
  if (reply.finishReason !== undefined) return reply.finishReason;
  return reply.toolCalls?.length ? 'tool_calls' : 'stop';
}

/** vLLM sends `stop_reason` on every choice (null until the last); an OpenAI-like reply has none. */
function stopReasonOf(reply: FakeOpenAiChatReply, finishing: boolean): { stop_reason?: string | number | null } {
  if (reply.stopReason === undefined) return {};
  return { stop_reason: finishing ? reply.stopReason : null };
}

function usageOf(reply: FakeOpenAiChatReply): Record<string, unknown> | null {
  if (reply.usage === null) return null;
  const usage = reply.usage ?? defaultUsage;
  return { ...usage, total_tokens: usage.total_tokens ?? usage.prompt_tokens + usage.completion_tokens };
}

/** What a request asked of log probabilities: `logprobs: true` and `top_logprobs` (0 when absent). */
type FakeLogprobsRequest = { top: number };

function logprobsRequestOf(body: Record<string, unknown>): FakeLogprobsRequest | undefined {
  if (body.logprobs !== true) return undefined;
  return { top: typeof body.top_logprobs === 'number' ? body.top_logprobs : 0 };
}

/**
 * The fake's tokens are its content pieces (one piece, one token). Each gets a log probability from its
 * position, and `top` candidates: the token itself first, then made-up alternatives, less likely each.
 * The shape is OpenAI's `ChatCompletionTokenLogprob`, which vLLM's ChatCompletionLogProbsContent follows
 * (vllm/entrypoints/openai/protocol.py): token, logprob, bytes (the UTF-8 of the token), top_logprobs.
 * The content's tokens have them in `logprobs.content`, a refusal's in `logprobs.refusal`, as OpenAI returns them.
 */
export function fakeTokenLogprob(token: string, position: number, top: number): Record<string, unknown> {
  const logprob = -(position + 1) / 100;
  const candidate = (text: string, value: number) => ({ token: text, logprob: value, bytes: [...Buffer.from(text, 'utf8')] });
  const alternatives = Array.from({ length: top }, (_, rank) =>
    rank === 0 ? candidate(token, logprob) : candidate(`${token}~${rank}`, logprob - rank),
  );
  return { ...candidate(token, logprob), top_logprobs: alternatives };
}

/** The `chat.completion.chunk` objects of a streamed reply, in wire order (without [DONE]). */
export function renderOpenAiChunks(
  reply: FakeOpenAiChatReply,
  model: string,
  includeUsage: boolean,
  logprobs?: FakeLogprobsRequest,
): Record<string, unknown>[] {
  const size = reply.fragmentSize ?? 3;
  const quirks = new Set(reply.quirks ?? []);
  const base = {
    id: 'chatcmpl-fake',
    object: 'chat.completion.chunk',
    created: 1_700_000_000,
    model: reply.model ?? model,
    system_fingerprint: 'fp_fake',
  };
  const chunk = (delta: Record<string, unknown>, finishReason: string | null = null, tokens: unknown = null) => ({
    ...base,
    choices: [{ index: 0, delta, logprobs: tokens, finish_reason: finishReason, ...stopReasonOf(reply, finishReason !== null) }],
  });
  const chunks: Record<string, unknown>[] = [
    chunk(reply.refusal === undefined ? { role: 'assistant', content: '' } : { role: 'assistant', content: null, refusal: '' }),
  ];
  const reasoningField = reply.reasoningField ?? 'reasoning_content';
  for (const piece of piecesOf(reply.reasoning, size)) chunks.push(chunk({ [reasoningField]: piece }));
  for (const [position, piece] of piecesOf(reply.content, size).entries())
    chunks.push(chunk({ content: piece }, null, logprobs ? { content: [fakeTokenLogprob(piece, position, logprobs.top)] } : null));
  for (const [position, piece] of piecesOf(reply.refusal, size).entries())
    chunks.push(
      chunk({ refusal: piece }, null, logprobs ? { content: null, refusal: [fakeTokenLogprob(piece, position, logprobs.top)] } : null),
    );
  for (const toolCalls of toolCallDeltas(withIds(reply), size, quirks)) chunks.push(chunk({ tool_calls: toolCalls }));
  const finishReason = finishReasonOf(reply);
  if (finishReason !== null) chunks.push(chunk({}, finishReason));
  const usage = usageOf(reply);
  if (includeUsage && usage) chunks.push({ ...base, choices: [], usage });
  return chunks;
}

/** A whole reply's `logprobs`: its content's tokens, or its refusal's (the other list null, as OpenAI sends them). */
function wholeLogprobs(reply: FakeOpenAiChatReply, logprobs: FakeLogprobsRequest): Record<string, unknown> {
  const tokens = (value: string | string[] | undefined) =>
    piecesOf(value, reply.fragmentSize ?? 3).map((piece, position) => fakeTokenLogprob(piece, position, logprobs.top));
  return reply.refusal === undefined ? { content: tokens(reply.content) } : { content: null, refusal: tokens(reply.refusal) };
}

/** The non-streaming `chat.completion` for the same reply. */
function renderOpenAiCompletion(reply: FakeOpenAiChatReply, model: string, logprobs?: FakeLogprobsRequest): Record<string, unknown> {
  const calls = withIds(reply);
  const content = Array.isArray(reply.content) ? reply.content.join('') : reply.content;
  const refusal = Array.isArray(reply.refusal) ? reply.refusal.join('') : reply.refusal;
  const message: Record<string, unknown> = {
    role: 'assistant',
    content: content ?? (calls.length || refusal !== undefined ? null : ''),
    refusal: refusal ?? null,
  };
  const reasoning = Array.isArray(reply.reasoning) ? reply.reasoning.join('') : reply.reasoning;
  if (reasoning !== undefined) message[reply.reasoningField ?? 'reasoning_content'] = reasoning;
  if (calls.length)
    message.tool_calls = calls.map((call) => ({
      id: call.id,
      type: 'function',
      function: { name: call.name, arguments: argumentsText(call) },
    }));
  const body: Record<string, unknown> = {
    id: 'chatcmpl-fake',
    object: 'chat.completion',
    created: 1_700_000_000,
    model: reply.model ?? model,
    choices: [
      {
        index: 0,
        message,
        logprobs: logprobs ? wholeLogprobs(reply, logprobs) : null,
        finish_reason: finishReasonOf(reply),
        ...stopReasonOf(reply, true),
      },
    ],
  };
  const usage = usageOf(reply);
  if (usage) body.usage = usage;
  return body;
}

function canWrite(response: http.ServerResponse): boolean {
  return !response.destroyed && !response.writableEnded;
}

/** Resolves once the frame is handed to the socket, so a later `destroy` cannot drop it. */
function write(response: http.ServerResponse, text: string): Promise<void> {
  return new Promise((resolve) => response.write(text, () => resolve()));
}

function writeJson(response: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
}

function writeError(reply: FakeOpenAiErrorReply, response: http.ServerResponse): void {
  const error = {
    message: reply.message,
    type: reply.errorType ?? 'invalid_request_error',
    param: reply.param ?? null,
    code: reply.code ?? null,
  };
  writeJson(response, reply.status, { error }, reply.headers);
}

/**
 * The non-streaming answer, with each scripted failure in its whole-body form: an error body in a
 * 200 (as OpenRouter sends for a failed generation), a body cut off mid-JSON, a held response.
 */
async function writeWholeChat(
  reply: FakeOpenAiChatReply,
  model: string,
  response: http.ServerResponse,
  logprobs: FakeLogprobsRequest | undefined,
): Promise<void> {
  if (reply.streamError) {
    const { message, type = 'server_error', code = null } = reply.streamError;
    writeJson(response, 200, { error: { message, type, param: null, code } }, reply.headers);
    return;
  }
  const text = JSON.stringify(renderOpenAiCompletion(reply, model, logprobs));
  const cut = reply.cutAfterChunks ?? reply.endAfterChunks ?? reply.holdAfterChunks;
  if (cut === undefined) {
    response.writeHead(200, { 'content-type': 'application/json', ...reply.headers });
    response.end(text);
    return;
  }
  response.writeHead(200, { 'content-type': 'application/json', ...reply.headers });
  await write(response, text.slice(0, Math.floor(text.length / 2)));
  if (reply.cutAfterChunks !== undefined) response.socket?.destroy();
  else if (reply.endAfterChunks !== undefined) response.end();
  else await new Promise((resolve) => response.once('close', resolve));
}

/** Writes a scripted reply as `chat.completion` JSON or SSE chunks, as the request asks (the fake servers share it). */
export async function writeOpenAiChatReply(
  reply: FakeOpenAiChatReply,
  recorded: RecordedRequest,
  response: http.ServerResponse,
): Promise<void> {
  const body = (recorded.body ?? {}) as { model?: unknown; stream?: unknown; stream_options?: { include_usage?: unknown } | null };
  const model = typeof body.model === 'string' ? body.model : 'unknown';
  const logprobs = reply.ignoresLogprobs ? undefined : logprobsRequestOf(body as Record<string, unknown>);
  if (body.stream !== true) return writeWholeChat(reply, model, response, logprobs);
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...reply.headers });
  const chunks = renderOpenAiChunks(reply, model, body.stream_options?.include_usage === true, logprobs);
  for (const [position, chunk] of chunks.entries()) {
    if (!canWrite(response)) return;
    if (reply.cutAfterChunks === position) {
      response.socket?.destroy();
      return;
    }
    if (reply.endAfterChunks === position) {
      response.end();
      return;
    }
    if (reply.holdAfterChunks === position) {
      await new Promise((resolve) => response.once('close', resolve));
      return;
    }
    if (reply.streamError?.afterChunks === position) {
      const { message, type = 'server_error', code = null } = reply.streamError;
      response.end(`data: ${JSON.stringify({ error: { message, type, param: null, code } })}\n\n`);
      return;
    }
    await write(response, `data: ${JSON.stringify(chunk)}\n\n`);
    if (reply.chunkDelayMs) await sleep(reply.chunkDelayMs);
  }
  if (canWrite(response)) response.end('data: [DONE]\n\n');
}

async function writeReply(reply: FakeOpenAiReply, recorded: RecordedRequest, response: http.ServerResponse): Promise<void> {
  if (reply.type === 'reset') {
    // resetAndDestroy sends a TCP RST, so the gateway sees ECONNRESET rather than a clean close.
    response.socket?.resetAndDestroy();
    return;
  }
  if (reply.headersDelayMs) await sleep(reply.headersDelayMs);
  if (!canWrite(response)) return;
  switch (reply.type) {
    case 'chat':
      return writeOpenAiChatReply(reply, recorded, response);
    case 'http-error':
      return writeError(reply, response);
    case 'raw':
      response.writeHead(reply.status, { 'content-type': reply.contentType ?? 'text/plain' });
      response.end(reply.body);
      return;
  }
}

function writeEmbeddings(recorded: RecordedRequest, response: http.ServerResponse, withUsage: boolean): void {
  const body = (recorded.body ?? {}) as { model?: string; input?: unknown; dimensions?: number; encoding_format?: string };
  const inputs =
    Array.isArray(body.input) && (typeof body.input[0] === 'string' || Array.isArray(body.input[0])) ? body.input : [body.input];
  const data = inputs.map((input, index) => {
    const vector = fakeOpenAiEmbedding(input, body.dimensions ?? 3);
    return { object: 'embedding', index, embedding: body.encoding_format === 'base64' ? encodeFloat32Base64(vector) : vector };
  });
  writeJson(response, 200, {
    object: 'list',
    data,
    model: body.model,
    usage: withUsage ? { prompt_tokens: inputs.length * 2, total_tokens: inputs.length * 2 } : null,
  });
}

export async function startFakeOpenAiUpstream(options: { models?: string[] } = {}): Promise<FakeOpenAiUpstream> {
  const chatQueue: FakeOpenAiReply[] = [];
  const modelsQueue: (FakeOpenAiErrorReply | FakeOpenAiRawReply)[] = [];
  const embeddingsQueue: FakeOpenAiEmbeddingsReply[] = [];
  const state: { models: string[]; embeddingUsage: boolean; responder?: ((request: RecordedRequest) => FakeOpenAiReply) | undefined } = {
    models: options.models ?? ['gpt-fake-1', 'gpt-fake-2'],
    embeddingUsage: true,
  };
  const server = await startLoopbackServer(async (recorded, response) => {
    // Writes after the client went away must not crash the fake.
    response.on('error', () => undefined);
    const path = recorded.path.split('?')[0];
    if (recorded.method === 'POST' && path === '/v1/chat/completions') {
      const reply = chatQueue.shift() ??
        state.responder?.(recorded) ?? {
          type: 'http-error',
          status: 500,
          errorType: 'server_error',
          message: 'fake: no scripted reply left',
        };
      await writeReply(reply, recorded, response);
      return;
    }
    if (recorded.method === 'GET' && path === '/v1/models') {
      const reply = modelsQueue.shift();
      if (reply) await writeReply(reply, recorded, response);
      else
        writeJson(response, 200, {
          object: 'list',
          data: state.models.map((id) => ({ id, object: 'model', created: 1_700_000_000, owned_by: 'fake-org' })),
        });
      return;
    }
    if (recorded.method === 'POST' && path === '/v1/embeddings') {
      const reply = embeddingsQueue.shift();
      if (reply && reply.type !== 'embeddings') return writeReply(reply, recorded, response);
      if (reply?.headersDelayMs) await sleep(reply.headersDelayMs);
      if (canWrite(response)) writeEmbeddings(recorded, response, state.embeddingUsage);
      return;
    }
    writeError({ type: 'http-error', status: 404, message: `fake: no route ${recorded.method} ${path}`, code: 'unknown_url' }, response);
  });
  const chatRequests = () =>
    server.requests.filter((request) => request.method === 'POST' && request.path.split('?')[0] === '/v1/chat/completions');
  return {
    url: server.url,
    port: server.port,
    requests: server.requests,
    chatRequests,
    lastChatBody: () => {
      const last = chatRequests().at(-1);
      if (!last) throw new Error('the fake OpenAI upstream received no chat request');
      return last.body as Record<string, unknown>;
    },
    enqueue: (...replies) => chatQueue.push(...replies),
    respondWith: (responder) => {
      state.responder = responder;
    },
    enqueueModels: (...replies) => modelsQueue.push(...replies),
    enqueueEmbeddings: (...replies) => embeddingsQueue.push(...replies),
    embeddingRequests: () =>
      server.requests.filter((request) => request.method === 'POST' && request.path.split('?')[0] === '/v1/embeddings'),
    get models() {
      return state.models;
    },
    set models(models) {
      state.models = models;
    },
    get embeddingUsage() {
      return state.embeddingUsage;
    },
    set embeddingUsage(withUsage) {
      state.embeddingUsage = withUsage;
    },
    nextRequest: server.nextRequest,
    waitForAbort: async (request, timeoutMs = 3000) => {
      const deadline = Date.now() + timeoutMs;
      while (!request.aborted) {
        if (Date.now() > deadline) throw new Error(`the client did not abort ${request.path} within ${timeoutMs} ms`);
        await sleep(10);
      }
    },
    close: server.close,
  };
}
