/** The HTTP server's own time limits, as fastify options: receiving a request, and closing the app. */
import type { ServerOptions } from 'node:http';
import type { ServerConfig } from '../config/config-types.js';
import { shutdownOverrunMs } from './live-streams.js';

/** Room for the onClose hooks (the upstream pools closing) on top of the live streams' own bound. */
const closeHookMarginMs = 5_000;

/** Node checks the request and headers timeouts on a clock (30 s by default), so a small timeout needs a faster one. */
function connectionsCheckingInterval(server: ServerConfig): number {
  const smallest = server.requestTimeoutMs > 0 ? Math.min(server.requestTimeoutMs, server.headersTimeoutMs) : server.headersTimeoutMs;
  return Math.min(30_000, Math.max(50, Math.round(smallest / 4)));
}

/** The fastify options that carry them (fastify sets `requestTimeout` on the server after creating it with `http`). */
export type ServerTimeoutOptions = { requestTimeout: number; http: ServerOptions; pluginTimeout: number };

export function serverTimeoutOptions(server: ServerConfig, shutdownGraceMs: number): ServerTimeoutOptions {
  return {
    // Node's requestTimeout runs from the first byte until the request is fully received: a reply
    // streaming for minutes afterwards is not cut by it, a client stalling mid-body is (408, then close).
    // Its sweep can miss connections under load, so the gateway keeps its own body deadline too
    // (request-body-deadline.ts).
    requestTimeout: server.requestTimeoutMs,
    http: {
      requestTimeout: server.requestTimeoutMs,
      headersTimeout: server.headersTimeoutMs,
      connectionsCheckingInterval: connectionsCheckingInterval(server),
    },
    // fastify runs each close hook under pluginTimeout (10 s by default): a grace period as long as that
    // failed the close with AVV_ERR_READY_TIMEOUT and the process exited 1 instead of 0.
    pluginTimeout: Math.max(10_000, shutdownGraceMs + shutdownOverrunMs + closeHookMarginMs),
  };
}
