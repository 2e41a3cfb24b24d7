/** A recording HTTP server on 127.0.0.1:0 for fake upstreams: every request is kept for assertions. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type RecordedRequest = {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  /** The JSON body when it parsed, else the raw text. */
  body: unknown;
  /** Set when the client went away before the response ended (abort propagation tests). */
  aborted: boolean;
};

export type LoopbackHandler = (request: RecordedRequest, response: http.ServerResponse, raw: http.IncomingMessage) => void | Promise<void>;

export type LoopbackServer = {
  url: string;
  port: number;
  requests: RecordedRequest[];
  /** Resolves when the next request arrives (useful for abort tests). */
  nextRequest(): Promise<RecordedRequest>;
  close(): Promise<void>;
};

/**
 * `keepAliveTimeoutMs`: Node's default here is 1 s, under undici's keep-alive threshold (2 s), so undici
 * closes each connection after its response; a test of connection reuse needs longer, as real servers
 * give (uvicorn's 5 s, for vLLM). `port`: a fixed one, to start a server again where a closed one was (a
 * restart, as the gateway sees it); any free one when absent.
 */
export async function startLoopbackServer(
  handler: LoopbackHandler,
  options: { keepAliveTimeoutMs?: number; port?: number } = {},
): Promise<LoopbackServer> {
  const requests: RecordedRequest[] = [];
  let waiters: ((request: RecordedRequest) => void)[] = [];
  const server = http.createServer(async (raw, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of raw) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      // keep the raw text: some tests send malformed bodies on purpose
    }
    const recorded: RecordedRequest = {
      method: raw.method ?? 'GET',
      path: raw.url ?? '/',
      headers: raw.headers,
      body,
      aborted: false,
    };
    response.on('close', () => {
      if (!response.writableFinished) recorded.aborted = true;
    });
    requests.push(recorded);
    const current = waiters;
    waiters = [];
    for (const resolve of current) resolve(recorded);
    try {
      await handler(recorded, response, raw);
    } catch (error) {
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { message: String(error) } }));
    }
  });
  server.keepAliveTimeout = options.keepAliveTimeoutMs ?? 1000;
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    nextRequest: () => new Promise((resolve) => waiters.push(resolve)),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Splits text into pieces of at most `size` characters (code points kept whole). */
export function splitIntoPieces(text: string, size: number): string[] {
  const characters = Array.from(text);
  const pieces: string[] = [];
  for (let index = 0; index < characters.length; index += size) pieces.push(characters.slice(index, index + size).join(''));
  return pieces;
}

export const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));
