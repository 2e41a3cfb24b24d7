/** Closes the socket of a WebSocket upgrade that got an HTTP answer instead (401, 404, 429, …). */
import type { FastifyInstance } from 'fastify';

/**
 * @fastify/websocket answers a refused upgrade with an HTTP response written on the raw upgrade
 * socket, which Node's HTTP server no longer manages: nothing ends it, the server keeps it half-open
 * after the client leaves, and `close()` waits for it forever. Answered means done, so end it.
 */
export function registerCloseRefusedUpgrades(app: FastifyInstance): void {
  // A callback hook, not an async one: it runs after every reply, and an async hook costs a promise and a microtask each time.
  app.addHook('onResponse', (request, _reply, done) => {
    const upgrade = request.headers.upgrade;
    if (typeof upgrade === 'string' && upgrade.toLowerCase() === 'websocket') request.raw.socket.destroySoon();
    done();
  });
}
