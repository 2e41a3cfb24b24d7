/**
 * A fake upstream on 127.0.0.1:0 whose generation never ends. Anthropic's Messages API: a streamed
 * reply (`stream: true`) is a well-formed event stream whose text deltas keep coming, one every
 * `intervalMs` (https://docs.anthropic.com/en/api/messages-streaming). OpenAI's Chat Completions: a
 * non-streamed request (`stream: false`) is answered only once generation ends, so its headers never
 * come (https://platform.openai.com/docs/api-reference/chat/create); a streamed one is an endless
 * stream of content chunks. Each response stops when the client goes away, which `closed` reports.
 */
import type http from 'node:http';
import { startLoopbackServer, type LoopbackServer, type RecordedRequest } from './loopback-server.js';

export type EndlessUpstream = {
  url: string;
  server: LoopbackServer;
  /** Resolves once the client went away from the n-th request (0-based). */
  closed(index: number): Promise<void>;
  close(): Promise<void>;
};

function frame(event: string | undefined, data: unknown): string {
  return `${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`;
}

function anthropicOpening(model: string): string {
  const message = {
    id: 'msg_endless',
    type: 'message',
    role: 'assistant',
    model,
    content: [],
    stop_reason: null,
    usage: { input_tokens: 1, output_tokens: 0 },
  };
  return (
    frame('message_start', { type: 'message_start', message }) +
    frame('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } })
  );
}

function nextFrame(path: string, model: string, text: string): string {
  if (path === '/v1/messages')
    return frame('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } });
  return frame(undefined, {
    id: 'chatcmpl-endless',
    object: 'chat.completion.chunk',
    created: 0,
    model,
    choices: [{ index: 0, delta: { content: text }, finish_reason: null }],
  });
}

/** `deltaText` is each delta's text; `intervalMs` the pause between two. */
export async function startEndlessUpstream(options: { deltaText: string; intervalMs: number }): Promise<EndlessUpstream> {
  const closedResponses: Promise<void>[] = [];
  const server = await startLoopbackServer((request: RecordedRequest, response: http.ServerResponse) => {
    closedResponses.push(new Promise((resolve) => response.once('close', () => resolve())));
    const body = request.body as { model?: string; stream?: boolean };
    const model = body.model ?? 'endless';
    const path = request.path.split('?')[0] ?? request.path;
    // Generating, forever: the headers of a non-streamed OpenAI reply would come only with its end.
    if (path === '/v1/chat/completions' && body.stream !== true) return;
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    if (path === '/v1/messages') response.write(anthropicOpening(model));
    const timer = setInterval(() => response.write(nextFrame(path, model, options.deltaText)), options.intervalMs);
    response.once('close', () => clearInterval(timer));
  });
  return {
    url: server.url,
    server,
    closed: async (index) => {
      while (closedResponses[index] === undefined) await new Promise((resolve) => setTimeout(resolve, 10));
      await closedResponses[index];
    },
    close: () => server.close(),
  };
}
