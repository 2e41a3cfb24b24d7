/**
 * A fake OpenAI-compatible upstream on 127.0.0.1 that answers instantly with fixed bodies, so the
 * figures isolate what sits between client and upstream. `POST /<reply-kind>/v1/chat/completions`
 * answers JSON, or SSE when the body asks for `"stream":true` (the gateway always does).
 */
import http from 'node:http';
import { setImmediate as nextTick } from 'node:timers/promises';
import { renderReplies, replyKinds, type RenderedReply, type ReplyKind } from './fake-replies.js';
import { listenOnLoopback, type RunningServer } from './running-server.js';

const streamFlag = Buffer.from('"stream":true');

function replyKindOf(url: string | undefined): ReplyKind | undefined {
  if (!url?.endsWith('/chat/completions')) return undefined;
  const kind = url.slice(1, url.indexOf('/', 1));
  return (replyKinds as readonly string[]).includes(kind) ? (kind as ReplyKind) : undefined;
}

function startSse(response: http.ServerResponse): void {
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
}

/**
 * One frame per event-loop turn, like a server emitting tokens as they come: written all at once,
 * the frames would reach a proxy as one read and the per-chunk cost would never show.
 */
async function writePaced(response: http.ServerResponse, frames: Buffer[]): Promise<void> {
  for (const frame of frames) {
    if (response.destroyed) return;
    if (!response.write(frame)) await new Promise((resolve) => response.once('drain', resolve).once('close', resolve));
    await nextTick();
  }
  response.end();
}

function answer(reply: RenderedReply, stream: boolean, response: http.ServerResponse): void | Promise<void> {
  if (!stream) {
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': reply.json.length });
    response.end(reply.json);
    return;
  }
  startSse(response);
  switch (reply.kind) {
    case 'chunks-500':
    case 'chunks-1000':
      return writePaced(response, reply.frames);
    case 'hold':
      // Held open until the client goes away: the idle-stream memory figure.
      response.write(reply.sse);
      return;
    default:
      response.end(reply.sse);
  }
}

export function startFakeUpstream(port = 0): Promise<RunningServer> {
  const replies = renderReplies();
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const kind = replyKindOf(request.url);
      const reply = kind && request.method === 'POST' ? replies.get(kind) : undefined;
      if (!reply) {
        response
          .writeHead(404, { 'content-type': 'application/json' })
          .end('{"error":{"message":"unknown bench route","type":"not_found"}}');
        return;
      }
      const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
      void answer(reply, body.includes(streamFlag), response);
    });
  });
  return listenOnLoopback(server, port);
}
