/** Listens an HTTP server on 127.0.0.1 with long keep-alive, and closes it without waiting for idle sockets. */
import type http from 'node:http';
import type { AddressInfo } from 'node:net';

export type RunningServer = {
  /** `http://127.0.0.1:PORT`, no trailing slash. */
  url: string;
  port: number;
  close(): Promise<void>;
};

export async function listenOnLoopback(server: http.Server, port = 0, onClose?: () => Promise<void>): Promise<RunningServer> {
  // The load generator alternates contenders; a socket left idle between two windows must still be
  // reusable, or every window would start with a burst of reconnects (Node's default is 5 s).
  server.keepAliveTimeout = 120_000;
  server.headersTimeout = 121_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const actualPort = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${actualPort}`,
    port: actualPort,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
      await onClose?.();
    },
  };
}
