/**
 * GET /health (liveness: the process answers), GET /ready (readiness: config loaded and at least one
 * provider reachable) and HEAD / (Claude Code's probe). None needs a key.
 */
import type { FastifyInstance } from 'fastify';
import { GatewayError } from '../../src/core/gateway-error.js';
import { sendError } from '../../src/plugins/error-envelope.js';

export type HealthRouteOptions = {
  providers: string[];
  version: string;
  /** Whether one provider answers now (its model list, within a short timeout). */
  reachable(provider: string): Promise<boolean>;
};

/** Orchestrators probe every few seconds: one answer serves the probes of this long. */
const readinessCacheMs = 5_000;

export function registerHealthRoutes(app: FastifyInstance, options: HealthRouteOptions): void {
  app.get('/health', async () => ({ status: 'ok', version: options.version, providers: options.providers }));
  app.head('/', async (_request, reply) => reply.status(200).send());

  let cached: { at: number; providers: Promise<Record<string, boolean>> } | undefined;
  const probe = () => {
    if (!cached || Date.now() - cached.at > readinessCacheMs) {
      const providers = Promise.all(options.providers.map(async (name) => [name, await options.reachable(name).catch(() => false)] as const)).then(Object.fromEntries);
      cached = { at: Date.now(), providers };
    }
    return cached.providers;
  };

  app.get('/ready', async (request, reply) => {
    const providers = await probe();
    if (Object.values(providers).some(Boolean)) return { status: 'ready', providers };
    const message = options.providers.length ? `No provider is reachable: ${options.providers.join(', ')}.` : 'No provider is configured.';
    return sendError(request, reply, new GatewayError({ status: 503, type: 'server_error', code: 'not_ready', message }));
  });
}
