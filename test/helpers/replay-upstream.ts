/**
 * Replays recorded wire captures (`test/fixtures/wire/<server>/<case>`) as an upstream on loopback: each
 * on the route its server kind answers, with that server's content type, re-chunked as a test asks, so
 * that adapters meet what real servers send rather than what a hand-written fake imagines.
 */
import { readdirSync, readFileSync } from 'node:fs';
import type http from 'node:http';
import { startLoopbackServer, type RecordedRequest } from './loopback-server.js';

export type WireServer = 'openai' | 'anthropic' | 'ollama' | 'vllm' | 'llama-cpp' | 'gemini';

/** The API a capture speaks, which decides its route: Ollama also serves the OpenAI API under `/v1`. */
export type WireProtocol = 'openai-chat' | 'anthropic-messages' | 'ollama-chat' | 'gemini-generate';

export type WireFixture = {
  server: WireServer;
  /** The file name, e.g. `tool-call-streamed.sse`. */
  name: string;
  protocol: WireProtocol;
  /** `stream` for `.sse` and `.ndjson` captures, `whole` for `.json` bodies. */
  delivery: 'stream' | 'whole';
  bytes: Buffer;
  /** The bytes as UTF-8, for the tests that read what a capture carries. */
  text: string;
};

const wireFolder = new URL('../fixtures/wire/', import.meta.url);

export const wireServers: readonly WireServer[] = ['openai', 'anthropic', 'ollama', 'vllm', 'llama-cpp', 'gemini'];

function protocolOf(server: WireServer, name: string): WireProtocol {
  if (server === 'anthropic') return 'anthropic-messages';
  if (server === 'gemini') return 'gemini-generate';
  if (server === 'ollama' && !name.endsWith('.sse')) return 'ollama-chat';
  return 'openai-chat';
}

export function readWireFixture(server: WireServer, name: string): WireFixture {
  const bytes = readFileSync(new URL(`${server}/${name}`, wireFolder));
  return {
    server,
    name,
    protocol: protocolOf(server, name),
    delivery: name.endsWith('.json') ? 'whole' : 'stream',
    bytes,
    text: bytes.toString('utf8'),
  };
}

/** Every capture of one server, by file name (SOURCES.md is not one). */
export function listWireFixtures(server: WireServer): WireFixture[] {
  return readdirSync(new URL(`${server}/`, wireFolder))
    .filter((name) => /\.(sse|ndjson|json)$/.test(name))
    .sort()
    .map((name) => readWireFixture(server, name));
}

/** How the body is cut into writes: the gateway must not depend on where an upstream's chunks fall. */
export type Chunking = { kind: 'whole' } | { kind: 'lines' } | { kind: 'bytes'; size: number };

export type ReplayOptions = {
  chunking?: Chunking;
  /** `crlf` rewrites every line end as CRLF, as some servers (Google's) write SSE. */
  lineEnding?: 'as-recorded' | 'crlf';
  status?: number;
};

/** The content type each server sends, streamed and whole, as recorded from those servers. */
const contentTypes: Record<WireServer, Record<WireFixture['delivery'], string>> = {
  openai: { stream: 'text/event-stream; charset=utf-8', whole: 'application/json' },
  anthropic: { stream: 'text/event-stream; charset=utf-8', whole: 'application/json' },
  ollama: { stream: 'application/x-ndjson', whole: 'application/json; charset=utf-8' },
  vllm: { stream: 'text/event-stream; charset=utf-8', whole: 'application/json' },
  'llama-cpp': { stream: 'text/event-stream', whole: 'application/json; charset=utf-8' },
  gemini: { stream: 'text/event-stream', whole: 'application/json; charset=UTF-8' },
};

function contentTypeOf(fixture: WireFixture): string {
  // Ollama's OpenAI-compatible endpoint streams SSE, not its native NDJSON.
  if (fixture.protocol === 'openai-chat' && fixture.delivery === 'stream') return 'text/event-stream';
  return contentTypes[fixture.server][fixture.delivery];
}

/** Whether `request` is the call a capture of `fixture` answers: its route, and streamed or whole alike. */
function mismatch(fixture: WireFixture, request: RecordedRequest): string | undefined {
  const streamAsked = (request.body as { stream?: unknown } | undefined)?.stream === true;
  const routes: Record<WireProtocol, RegExp> = {
    'openai-chat': /^\/v1\/chat\/completions$/,
    'anthropic-messages': /^\/v1\/messages$/,
    'ollama-chat': /^\/api\/chat$/,
    'gemini-generate':
      fixture.delivery === 'stream'
        ? /^\/v1beta\/models\/[^/]+:streamGenerateContent\?alt=sse$/
        : /^\/v1beta\/models\/[^/]+:generateContent$/,
  };
  if (request.method !== 'POST' || !routes[fixture.protocol].test(request.path))
    return `${request.method} ${request.path} is not the route of ${fixture.protocol}`;
  if (fixture.protocol !== 'gemini-generate' && streamAsked !== (fixture.delivery === 'stream'))
    return `the request asked for ${streamAsked ? 'a stream' : 'a whole reply'} but ${fixture.server}/${fixture.name} is ${fixture.delivery === 'stream' ? 'a stream' : 'a whole reply'}`;
  return undefined;
}

function withLineEnding(bytes: Buffer, lineEnding: ReplayOptions['lineEnding']): Buffer {
  if (lineEnding !== 'crlf') return bytes;
  return Buffer.from(bytes.toString('utf8').replace(/\r?\n/g, '\r\n'), 'utf8');
}

/** The writes of one body; `bytes` cuts through multi-byte characters on purpose. */
export function cutIntoWrites(bytes: Buffer, chunking: Chunking): Buffer[] {
  switch (chunking.kind) {
    case 'whole':
      return [bytes];
    case 'lines': {
      const writes: Buffer[] = [];
      let start = 0;
      for (let index = 0; index < bytes.length; index += 1) {
        if (bytes[index] !== 0x0a) continue;
        writes.push(bytes.subarray(start, index + 1));
        start = index + 1;
      }
      if (start < bytes.length) writes.push(bytes.subarray(start));
      return writes;
    }
    case 'bytes': {
      const writes: Buffer[] = [];
      for (let index = 0; index < bytes.length; index += chunking.size) writes.push(bytes.subarray(index, index + chunking.size));
      return writes;
    }
  }
}

/** Resolves once the write left for the socket, so that the next write goes out as its own chunk. */
function writeAndWait(response: http.ServerResponse, bytes: Buffer): Promise<void> {
  return new Promise((resolve, reject) => response.write(bytes, (error) => (error ? reject(error) : resolve())));
}

export type ReplayUpstream = {
  url: string;
  /** Every request, with its parsed JSON body, in arrival order. */
  requests: RecordedRequest[];
  /** Queues a capture for the next request; a request with nothing queued, or the wrong route, gets a 599 saying why. */
  replay(fixture: WireFixture, options?: ReplayOptions): void;
  close(): Promise<void>;
};

export async function startReplayUpstream(): Promise<ReplayUpstream> {
  const queue: { fixture: WireFixture; options: ReplayOptions }[] = [];
  const server = await startLoopbackServer(async (request, response) => {
    const next = queue.shift();
    const problem = next ? mismatch(next.fixture, request) : 'no capture queued';
    if (!next || problem) {
      // 599: no real server sends it, so a test that trips here cannot mistake it for a replayed error.
      response.writeHead(599, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: `replay upstream: ${problem}` }));
      return;
    }
    const { fixture, options } = next;
    response.writeHead(options.status ?? 200, { 'content-type': contentTypeOf(fixture) });
    for (const bytes of cutIntoWrites(withLineEnding(fixture.bytes, options.lineEnding), options.chunking ?? { kind: 'whole' }))
      await writeAndWait(response, bytes);
    response.end();
  });
  return {
    url: server.url,
    requests: server.requests,
    replay: (fixture, options = {}) => void queue.push({ fixture, options }),
    close: () => server.close(),
  };
}
