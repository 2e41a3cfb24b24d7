/**
 * A pass-through HTTP proxy on 127.0.0.1:0 that keeps the exact text of every request body. The fake
 * upstreams record bodies parsed, which hides byte differences (whitespace, escapes, key spelling)
 * that a spliced, cached serialisation could introduce; tests put this in front of them to compare bytes.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type RecordingProxy = {
  /** The proxy's root: use it where the upstream's root would go. */
  url: string;
  /** The raw body text of every request, in arrival order, with its path. */
  bodies: { path: string; text: string }[];
  close(): Promise<void>;
};

export async function startRecordingProxy(targetRoot: string): Promise<RecordingProxy> {
  const bodies: RecordingProxy['bodies'] = [];
  const target = new URL(targetRoot);
  const server = http.createServer(async (incoming, outgoing) => {
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    bodies.push({ path: incoming.url ?? '/', text: body.toString('utf8') });
    const forwarded = http.request(
      {
        host: target.hostname,
        port: target.port,
        path: incoming.url,
        method: incoming.method,
        headers: { ...incoming.headers, host: target.host },
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forwarded.on('error', () => outgoing.destroy());
    // The gateway going away (an abort) must reach the upstream too.
    outgoing.on('close', () => forwarded.destroy());
    forwarded.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    bodies,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
