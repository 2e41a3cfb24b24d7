/** How the Responses WebSocket connections end when their app closes: a shutdown, or a config reload retiring the app. */
import type { FastifyInstance } from 'fastify';

/**
 * 1012 "Service Restart" (https://www.iana.org/assignments/websocket/websocket.xhtml#close-code-number):
 * the server goes away and the client may connect again, which is true of a shutdown behind a load
 * balancer and of a reload (the new connection gets the new config). @fastify/websocket's own closer
 * sends no code, which a client reads as 1005, an unexplained end. Only connections between turns are
 * left when this runs: an app is retired or closed after its generations finish or hit the grace.
 */
export function closeSocketsForRestart(this: FastifyInstance, done: () => void): void {
  const server = this.websocketServer;
  for (const client of server.clients) client.close(1012, 'the gateway is restarting or reloading its config; connect again');
  // Not waiting for the clients' closing handshakes (as @fastify/websocket does not): one that never answers would hold the close.
  server.close();
  done();
}
