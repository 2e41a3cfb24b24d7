/**
 * A scripted fake Ollama server on loopback: `/api/chat` (NDJSON, or one JSON object for `stream: false`),
 * `/api/tags`, `/api/embed`, errors, delays, cut streams and their whole-body forms.
 */
import type http from 'node:http';
import { fakeTokenLogprob } from './fake-openai-upstream.js';
import { sleep, splitIntoPieces, startLoopbackServer, type RecordedRequest } from './loopback-server.js';

export type FakeOllamaToolCall = {
  name: string;
  /** An object as Ollama sends it; a string to imitate servers that send JSON text. */
  arguments: Record<string, unknown> | string;
  /** Newer Ollama servers name their calls; older ones do not. */
  id?: string;
};

/** Shared by every reply: where it applies and how long the headers wait. */
type ReplyBase = {
  /** The path this reply answers; defaults to the reply type's endpoint (any path for `error`/`raw`). */
  path?: string;
  /** Wait before the status line and headers are sent (headers-timeout tests). */
  headersDelayMs?: number;
};

export type FakeOllamaChatReply = ReplyBase & {
  type: 'chat';
  content?: string;
  thinking?: string;
  /** Sent whole, in one chunk before the final `done` chunk, as Ollama does. */
  toolCalls?: FakeOllamaToolCall[];
  /** Default `stop`. */
  doneReason?: string;
  /** Default 12. */
  promptEvalCount?: number;
  /** Default: the number of content and thinking pieces. */
  evalCount?: number;
  /** Characters per streamed piece; default 3. */
  pieceSize?: number;
  /** Pause after each streamed chunk. */
  chunkDelayMs?: number;
  /** Ends the body cleanly after this many chunks, without `done`. */
  endAfterChunks?: number;
  /** Destroys the socket after this many chunks. */
  destroyAfterChunks?: number;
  /** Sends `{"error": message}` after `afterChunks` chunks and ends, as Ollama does for mid-stream failures. */
  streamError?: { afterChunks: number; message: string };
  /** Keeps the body open before the final `done` chunk until the client goes away (abort tests). */
  holdOpen?: boolean;
};

/** An HTTP error with Ollama's body shape `{"error": "…"}`. */
export type FakeOllamaErrorReply = ReplyBase & {
  type: 'error';
  status: number;
  message: string;
  headers?: Record<string, string>;
};

/** Any status and body, verbatim (proxies' HTML errors, malformed lines). */
export type FakeOllamaRawReply = ReplyBase & { type: 'raw'; status?: number; contentType?: string; body: string };

export type FakeOllamaEmbedReply = ReplyBase & { type: 'embed'; embeddings: number[][]; promptEvalCount?: number };

export type FakeOllamaTagsReply = ReplyBase & { type: 'tags'; models: string[] };

export type FakeOllamaReply = FakeOllamaChatReply | FakeOllamaErrorReply | FakeOllamaRawReply | FakeOllamaEmbedReply | FakeOllamaTagsReply;

export type FakeOllamaUpstream = {
  url: string;
  port: number;
  /** Every request, in arrival order, with its parsed JSON body. */
  requests: RecordedRequest[];
  /** Queues replies; each request takes the first queued reply that applies to its path, else a default. */
  enqueue(...replies: FakeOllamaReply[]): void;
  nextRequest(): Promise<RecordedRequest>;
  /** Resolves once the client went away from `request` before its response ended. */
  waitForAbort(request: RecordedRequest, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
};

export type FakeOllamaOptions = {
  /** Model names listed by `/api/tags` when no `tags` reply is queued. */
  models?: string[];
  /**
   * An Ollama from before 0.12.11, whose ChatRequest (api/types.go) has no `logprobs` or `top_logprobs`
   * (https://github.com/ollama/ollama/releases/tag/v0.12.11): Go's encoding/json drops unknown fields, so the
   * request is served as if they were absent, without a word, and no chunk carries `logprobs`.
   */
  beforeLogprobs?: boolean;
};

const defaultPaths: Record<FakeOllamaReply['type'], string | undefined> = {
  chat: '/api/chat',
  embed: '/api/embed',
  tags: '/api/tags',
  error: undefined,
  raw: undefined,
};

export async function startFakeOllamaUpstream(options: FakeOllamaOptions = {}): Promise<FakeOllamaUpstream> {
  const queue: FakeOllamaReply[] = [];
  const models = options.models ?? ['llama3.1:8b', 'qwen3:8b'];

  const takeReply = (path: string): FakeOllamaReply | undefined => {
    const position = queue.findIndex((reply) => {
      const replyPath = reply.path ?? defaultPaths[reply.type];
      return replyPath === undefined || replyPath === path;
    });
    return position === -1 ? undefined : queue.splice(position, 1)[0];
  };

  const server = await startLoopbackServer(async (request, response) => {
    const path = request.path.split('?')[0] ?? request.path;
    const reply = takeReply(path) ?? defaultReply(path, request, models);
    if (reply.headersDelayMs) await sleep(reply.headersDelayMs);
    if (response.destroyed) return;
    await writeReply(reply, request, response, options);
  });

  return {
    url: server.url,
    port: server.port,
    requests: server.requests,
    enqueue: (...replies) => queue.push(...replies),
    nextRequest: server.nextRequest,
    waitForAbort: async (request, timeoutMs = 2000) => {
      const deadline = Date.now() + timeoutMs;
      while (!request.aborted) {
        if (Date.now() > deadline) throw new Error(`the client did not abort ${request.path} within ${timeoutMs} ms`);
        await sleep(10);
      }
    },
    close: server.close,
  };
}

function defaultReply(path: string, request: RecordedRequest, models: string[]): FakeOllamaReply {
  switch (path) {
    case '/api/chat':
      return { type: 'chat', content: 'Hello from the fake Ollama.' };
    case '/api/tags':
      return { type: 'tags', models };
    case '/api/embed': {
      const body = request.body as { input?: string | string[]; dimensions?: number } | undefined;
      const inputs = typeof body?.input === 'string' ? [body.input] : (body?.input ?? []);
      return {
        type: 'embed',
        embeddings: inputs.map((text) => fakeEmbedding(text, body?.dimensions ?? 4)),
        promptEvalCount: inputs.reduce((total, text) => total + text.length, 0),
      };
    }
    default:
      return { type: 'error', status: 404, message: '404 page not found' };
  }
}

/** Deterministic, so tests can assert exact vectors. */
export function fakeEmbedding(text: string, dimensions: number): number[] {
  return Array.from({ length: dimensions }, (_, index) => (text.length + index) / 8);
}

async function writeReply(
  reply: FakeOllamaReply,
  request: RecordedRequest,
  response: http.ServerResponse,
  options: FakeOllamaOptions,
): Promise<void> {
  switch (reply.type) {
    case 'chat':
      return writeOllamaChatReply(reply, request, response, options);
    case 'error':
      writeJson(response, reply.status, { error: reply.message }, reply.headers);
      return;
    case 'raw':
      response.writeHead(reply.status ?? 200, { 'content-type': reply.contentType ?? 'text/plain' });
      response.end(reply.body);
      return;
    case 'embed':
      writeJson(response, 200, {
        model: modelOf(request),
        embeddings: reply.embeddings,
        total_duration: 1_000_000,
        load_duration: 100_000,
        prompt_eval_count: reply.promptEvalCount ?? reply.embeddings.length,
      });
      return;
    case 'tags':
      writeJson(response, 200, { models: reply.models.map(describeOllamaModel) });
      return;
  }
}

function writeJson(response: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  response.end(JSON.stringify(body));
}

/**
 * The non-streaming answer, with each scripted failure in its whole-body form. Ollama reports a failed
 * generation with an error status and `{"error": …}` when nothing was sent yet
 * (https://github.com/ollama/ollama/blob/main/server/routes.go, ChatHandler); a body that ends, drops or
 * stalls does so half-way through its JSON.
 */
async function writeWholeChat(reply: FakeOllamaChatReply, chunks: ChatChunk[], response: http.ServerResponse): Promise<void> {
  if (reply.streamError) {
    writeJson(response, 500, { error: reply.streamError.message });
    return;
  }
  const text = JSON.stringify(foldChunks(chunks));
  const breaksOff = reply.endAfterChunks !== undefined || reply.destroyAfterChunks !== undefined || reply.holdOpen;
  response.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
  if (!breaksOff) {
    response.end(text);
    return;
  }
  await writeText(response, text.slice(0, Math.floor(text.length / 2)));
  if (reply.destroyAfterChunks !== undefined) response.socket?.destroy();
  else if (reply.endAfterChunks !== undefined) response.end();
  else await new Promise((resolve) => response.once('close', resolve));
}

/** Writes a scripted `/api/chat` reply as NDJSON chunks or one JSON body, as the request asks (the fake servers share it). */
export async function writeOllamaChatReply(
  reply: FakeOllamaChatReply,
  request: RecordedRequest,
  response: http.ServerResponse,
  options: Pick<FakeOllamaOptions, 'beforeLogprobs'> = {},
): Promise<void> {
  const chunks = buildChatChunks(reply, modelOf(request), options.beforeLogprobs ? undefined : logprobsRequestOf(request));
  const streaming = (request.body as { stream?: unknown } | undefined)?.stream !== false;
  if (!streaming) return writeWholeChat(reply, chunks, response);
  response.writeHead(200, { 'content-type': 'application/x-ndjson' });
  for (const [position, chunk] of chunks.entries()) {
    if (response.destroyed) return;
    if (reply.endAfterChunks === position) break;
    if (reply.destroyAfterChunks === position) {
      response.socket?.destroy();
      return;
    }
    if (reply.streamError?.afterChunks === position) {
      await writeLine(response, { error: reply.streamError.message });
      break;
    }
    if (reply.holdOpen && position === chunks.length - 1) {
      await new Promise((resolve) => response.once('close', resolve));
      return;
    }
    await writeLine(response, chunk);
    if (reply.chunkDelayMs) await sleep(reply.chunkDelayMs);
  }
  response.end();
}

/** Resolves once the text left for the socket, so a later `destroy()` cannot swallow it. */
function writeText(response: http.ServerResponse, text: string): Promise<void> {
  return new Promise((resolve) => {
    response.write(text, () => resolve());
  });
}

function writeLine(response: http.ServerResponse, value: unknown): Promise<void> {
  return writeText(response, `${JSON.stringify(value)}\n`);
}

type ChatChunk = {
  model: string;
  created_at: string;
  message: { role: 'assistant'; content: string; thinking?: string; tool_calls?: unknown[] };
  done: boolean;
  logprobs?: Record<string, unknown>[];
  [key: string]: unknown;
};

/** `logprobs: true` asked for them, with `top_logprobs` candidates (api/types.go ChatRequest, since 0.12.11). */
type FakeLogprobsRequest = { top: number };

function logprobsRequestOf(request: RecordedRequest): FakeLogprobsRequest | undefined {
  const body = request.body as { logprobs?: unknown; top_logprobs?: unknown } | undefined;
  if (body?.logprobs !== true) return undefined;
  return { top: typeof body.top_logprobs === 'number' ? body.top_logprobs : 0 };
}

/**
 * One token in Ollama's `Logprob` shape (api/types.go): token, logprob, bytes, and `top_logprobs` only
 * when candidates were asked for (the member is `omitempty`). The values are those of the OpenAI fake.
 */
export function fakeOllamaTokenLogprob(token: string, position: number, top: number): Record<string, unknown> {
  const { top_logprobs: candidates, ...chosen } = fakeTokenLogprob(token, position, top);
  return top > 0 ? { ...chosen, top_logprobs: candidates } : chosen;
}

/** How the fake's thinking models close their thinking: a token the server's parser keeps out of both texts. */
export const fakeOllamaThinkingEnd = '</think>';

/**
 * The chunk sequence a real server sends: thinking pieces, content pieces, tool calls, then `done`. Asked for
 * log probabilities, each chunk carries those of the tokens it generated, one piece being one token, in a
 * top-level `logprobs` list (server/routes.go ChatHandler): thinking and tool calls have theirs too, and the
 * token that ends thinking comes in a chunk of its own with an empty message (the server sends a chunk
 * whose parser output is empty when it has log probabilities).
 */
export function buildChatChunks(reply: FakeOllamaChatReply, model: string, logprobs?: FakeLogprobsRequest): ChatChunk[] {
  const created_at = new Date().toISOString();
  const pieceSize = reply.pieceSize ?? 3;
  let position = 0;
  const chunk = (message: ChatChunk['message'], ...tokens: string[]): ChatChunk => {
    const built: ChatChunk = { model, created_at, message, done: false };
    if (logprobs) built.logprobs = tokens.map((token) => fakeOllamaTokenLogprob(token, position++, logprobs.top));
    return built;
  };
  const thinking = splitIntoPieces(reply.thinking ?? '', pieceSize);
  const content = splitIntoPieces(reply.content ?? '', pieceSize);
  const chunks = thinking.map((piece) => chunk({ role: 'assistant', content: '', thinking: piece }, piece));
  if (logprobs && thinking.length) chunks.push(chunk({ role: 'assistant', content: '' }, fakeOllamaThinkingEnd));
  for (const piece of content) chunks.push(chunk({ role: 'assistant', content: piece }, piece));
  if (reply.toolCalls?.length) {
    const toolCalls = reply.toolCalls.map((call, index) => ({
      ...(call.id === undefined ? {} : { id: call.id }),
      function: { index, name: call.name, arguments: call.arguments },
    }));
    chunks.push(
      chunk({ role: 'assistant', content: '', tool_calls: toolCalls }, ...toolCalls.map((call) => JSON.stringify(call.function))),
    );
  }
  chunks.push({
    model,
    created_at,
    message: { role: 'assistant', content: '' },
    done: true,
    done_reason: reply.doneReason ?? 'stop',
    total_duration: 5_000_000,
    load_duration: 1_000_000,
    prompt_eval_count: reply.promptEvalCount ?? 12,
    prompt_eval_duration: 2_000_000,
    eval_count: reply.evalCount ?? thinking.length + content.length,
    eval_duration: 2_000_000,
  });
  return chunks;
}

/** The non-streaming body: one message holding everything, with the final chunk's counters and every chunk's tokens. */
function foldChunks(chunks: ChatChunk[]): ChatChunk {
  const final = chunks[chunks.length - 1] as ChatChunk;
  const message: ChatChunk['message'] = { role: 'assistant', content: '' };
  let logprobs: Record<string, unknown>[] | undefined;
  for (const { message: part, logprobs: tokens } of chunks) {
    message.content += part.content;
    if (part.thinking) message.thinking = (message.thinking ?? '') + part.thinking;
    if (part.tool_calls) message.tool_calls = [...(message.tool_calls ?? []), ...part.tool_calls];
    if (tokens?.length) logprobs = [...(logprobs ?? []), ...tokens];
  }
  // writeChatResponse (server/routes.go) gathers the chunks' lists and leaves the member out when empty.
  return logprobs ? { ...final, message, logprobs } : { ...final, message };
}

function modelOf(request: RecordedRequest): string {
  const model = (request.body as { model?: unknown } | undefined)?.model;
  return typeof model === 'string' ? model : 'unknown';
}

/** A `/api/tags` entry as Ollama lists it. */
export function describeOllamaModel(name: string) {
  return {
    name,
    model: name,
    modified_at: '2025-06-01T12:00:00.000000000Z',
    size: 4_920_753_328,
    digest: 'a'.repeat(64),
    details: {
      parent_model: '',
      format: 'gguf',
      family: name.split(/[:.\d]/)[0] ?? name,
      families: [name.split(/[:.\d]/)[0] ?? name],
      parameter_size: '8.0B',
      quantization_level: 'Q4_K_M',
    },
  };
}
