/**
 * An HTTPS proxy on 127.0.0.1 that answers, itself, for a few public hosts: a child process given
 * HTTPS_PROXY (which google-auth-library's gaxios and @azure/identity's pipeline both honour) sends
 * `CONNECT host:443` here, and the TLS inside is ended with a test CA's certificate for that host, so the
 * credential libraries talk to a fake token endpoint on their real, default URLs, and nothing leaves the
 * machine. Any other host is refused (403) and listed in `refused`, so a test can say nothing else was tried.
 */
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TestCertificates } from './test-certificate-authority.js';
import { startLoopbackServer, type LoopbackHandler, type LoopbackServer } from './loopback-server.js';

export type InterceptingProxy = {
  /** For HTTPS_PROXY. */
  url: string;
  /** `host:port` of every CONNECT that was not one of the intercepted hosts. */
  refused: string[];
  /** The loopback server playing each intercepted host, with the requests it received. */
  servers: Record<string, LoopbackServer>;
  close(): Promise<void>;
};

/**
 * `hosts`: each intercepted host name and the loopback server that plays it (its handler gets the
 * decrypted requests). The proxy hands each decrypted connection to an HTTPS server in this process,
 * which relays it to that host's loopback server, so fakes are ordinary recording servers.
 */
export async function startInterceptingProxy(
  certificates: TestCertificates,
  hosts: Record<string, LoopbackHandler>,
): Promise<InterceptingProxy> {
  const servers: Record<string, LoopbackServer> = {};
  for (const [host, handler] of Object.entries(hosts)) servers[host] = await startLoopbackServer(handler);
  const tls = https.createServer({ cert: certificates.cert, key: certificates.key }, (request, response) => {
    const target = servers[(request.headers.host ?? '').replace(/:\d+$/, '')];
    if (!target) return void response.writeHead(421).end();
    const relay = http.request(`${target.url}${request.url ?? '/'}`, { method: request.method, headers: request.headers }, (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(response);
    });
    relay.on('error', () => response.destroy());
    request.pipe(relay);
  });
  const refused: string[] = [];
  const proxy = http.createServer((_request, response) => response.writeHead(405).end());
  proxy.on('connect', (request: http.IncomingMessage, socket: import('node:net').Socket) => {
    const [host] = (request.url ?? '').split(':');
    if (!host || !(host in servers)) {
      refused.push(request.url ?? '');
      socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
      return;
    }
    socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    tls.emit('connection', socket);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const { port } = proxy.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    refused,
    servers,
    close: async () => {
      proxy.closeAllConnections();
      tls.closeAllConnections();
      await Promise.all([
        new Promise<void>((resolve) => proxy.close(() => resolve())),
        new Promise<void>((resolve) => tls.close(() => resolve())),
        ...Object.values(servers).map((server) => server.close()),
      ]);
    },
  };
}
