/**
 * A fake upstream on 127.0.0.1:0 that speaks OpenAI, Anthropic, Ollama and Gemini and answers every request with
 * a body that never ends: one endless JSON string, after a normal first event when it streams. It writes
 * with backpressure until the client goes away, and counts the bytes it wrote, so tests can see that the
 * gateway stopped reading at its cap instead of buffering everything.
 */
import type http from 'node:http';
import { startLoopbackServer, type LoopbackServer, type RecordedRequest } from './loopback-server.js';

export type OversizedUpstream = {
  url: string;
  server: LoopbackServer;
  /** Bytes written per request, by `requestKey`: `POST /v1/chat/completions gpt`, `POST /v1beta/models/gpt:generateContent`. */
  written: Map<string, number>;
  /** Resolves once the client went away from the request whose key is given (or had already). */
  closed(key: string): Promise<void>;
  close(): Promise<void>;
};

/** More than any test's cap, and stops by itself if a gateway ever read it all. */
const maximumBytes = 16 * 1024 * 1024;
const filler = Buffer.alloc(64 * 1024, 'x');

function pathOf(request: RecordedRequest): string {
  return request.path.split('?')[0] ?? request.path;
}

/** Gemini names the model in the path: `/v1beta/models/{model}:generateContent` or `:streamGenerateContent`. */
const geminiPath = /^\/v1beta\/models\/([^/:]+):(generateContent|streamGenerateContent)$/;

/** The request's method, path and body model: what `written` and `closed` know it by. */
export function requestKey(request: RecordedRequest): string {
  const model = (request.body as { model?: unknown } | undefined)?.model;
  return `${request.method} ${pathOf(request)}${typeof model === 'string' && model ? ` ${model}` : ''}`;
}

/** The first, normal event of a streamed reply, in the wire format of the path. */
function firstEvent(path: string, model: string): string {
  if (path === '/v1/chat/completions') {
    return `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', model, choices: [{ index: 0, delta: { role: 'assistant', content: 'Hi' }, finish_reason: null }] })}\n\n`;
  }
  if (geminiPath.test(path))
    return `data: ${JSON.stringify({ candidates: [{ content: { role: 'model', parts: [{ text: 'Hi' }] }, index: 0 }] })}\r\n\r\n`;
  if (path === '/v1/messages') {
    const message = {
      id: 'm1',
      type: 'message',
      role: 'assistant',
      model,
      content: [],
      stop_reason: null,
      usage: { input_tokens: 1, output_tokens: 0 },
    };
    return [
      `event: message_start\ndata: ${JSON.stringify({ type: 'message_start', message })}\n\n`,
      `event: content_block_start\ndata: ${JSON.stringify({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } })}\n\n`,
      `event: content_block_delta\ndata: ${JSON.stringify({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hi' } })}\n\n`,
    ].join('');
  }
  return `${JSON.stringify({ model, created_at: '2025-01-01T00:00:00Z', message: { role: 'assistant', content: 'Hi' }, done: false })}\n`;
}

/** The start of the endless part: an event or a JSON body whose string value never closes. */
function endlessStart(path: string, streamed: boolean): string {
  if (!streamed) return '{"id":"whole","choices":[{"message":{"role":"assistant","content":"';
  if (path === '/v1/chat/completions') return 'data: {"choices":[{"index":0,"delta":{"content":"';
  if (geminiPath.test(path)) return 'data: {"candidates":[{"content":{"role":"model","parts":[{"text":"';
  if (path === '/v1/messages')
    return 'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"';
  return '{"message":{"role":"assistant","content":"';
}

function contentType(path: string, streamed: boolean): string {
  if (!streamed) return 'application/json';
  return path === '/api/chat' ? 'application/x-ndjson' : 'text/event-stream';
}

async function writeEndlessly(response: http.ServerResponse, count: (bytes: number) => void): Promise<void> {
  let total = 0;
  while (!response.destroyed && total < maximumBytes) {
    total += filler.length;
    count(filler.length);
    if (!response.write(filler)) {
      await new Promise<void>((resolve) => {
        const done = () => {
          response.off('drain', done);
          response.off('close', done);
          resolve();
        };
        response.on('drain', done);
        response.on('close', done);
      });
    }
  }
  response.end();
}

export async function startOversizedUpstream(): Promise<OversizedUpstream> {
  const written = new Map<string, number>();
  const closedKeys = new Map<string, Promise<void>>();
  const server = await startLoopbackServer(async (request, response) => {
    const body = (request.body ?? {}) as { model?: string; stream?: boolean };
    const path = pathOf(request);
    const gemini = geminiPath.exec(path);
    const model = gemini?.[1] ?? body.model ?? '';
    const key = requestKey(request);
    closedKeys.set(key, new Promise((resolve) => response.once('close', () => resolve())));
    written.set(key, 0);
    const count = (bytes: number) => written.set(key, (written.get(key) ?? 0) + bytes);
    // The model name picks the case: `error-body` answers 500 with the endless body; Ollama streams unless told not to.
    const errorBody = model === 'error-body';
    const streamed =
      !errorBody &&
      request.method === 'POST' &&
      (gemini ? gemini[2] === 'streamGenerateContent' : path === '/api/chat' ? body.stream !== false : body.stream === true);
    response.writeHead(errorBody ? 500 : 200, { 'content-type': contentType(path, streamed) });
    const start = (streamed ? firstEvent(path, model) : '') + endlessStart(path, streamed);
    count(Buffer.byteLength(start));
    response.write(start);
    await writeEndlessly(response, count);
  });
  return {
    url: server.url,
    server,
    written,
    closed: (key) => closedKeys.get(key) ?? Promise.reject(new Error(`no request ${key}`)),
    close: () => server.close(),
  };
}
