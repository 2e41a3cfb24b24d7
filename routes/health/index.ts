/**
 * GET /health (liveness: the process answers), GET /ready (readiness: config loaded and at least one
 * provider reachable; with the server found behind each provider) and HEAD / (Claude Code's probe). None needs a key.
 */
import type { FastifyInstance } from 'fastify';
import { gatewayError } from '../../src/core/gateway-error.js';
import type { ServerReport } from '../../src/core/server-directory.js';
import { sendError } from '../../src/plugins/error-envelope.js';

export type HealthRouteOptions = {
  providers: string[];
  version: string;
  /** Whether one provider answers now (its model list, within a short timeout). */
  reachable(provider: string): Promise<boolean>;
  /** The server found behind a provider (kind, version, how it was found); undefined for first-party APIs. */
  servers?(provider: string): ServerReport | undefined;
  /** Why the shared state (Redis) cannot serve now, or undefined; in-process state always can. */
  stateProblem?(): Promise<string | undefined>;
};

/** Orchestrators probe every few seconds: one answer serves the probes of this long. */
const readinessCacheMs = 5_000;

export function registerHealthRoutes(app: FastifyInstance, options: HealthRouteOptions): void {
  app.get('/health', async () => ({ status: 'ok', version: options.version, providers: options.providers }));
  app.head('/', async (_request, reply) => reply.status(200).send());

  let cached: { at: number; providers: Promise<Record<string, boolean>> } | undefined;
  const probe = () => {
    if (!cached || Date.now() - cached.at > readinessCacheMs) {
      const providers = Promise.all(
        options.providers.map(async (name) => [name, await options.reachable(name).catch(() => false)] as const),
      ).then(Object.fromEntries);
      cached = { at: Date.now(), providers };
    }
    return cached.providers;
  };

  // Read when asked: detection runs in the background and may finish, or run again, at any time.
  const serverReports = () => {
    const reports: Record<string, ServerReport> = {};
    for (const name of options.providers) {
      const report = options.servers?.(name);
      if (report) reports[name] = report;
    }
    return reports;
  };

  app.get('/ready', async (request, reply) => {
    // Not cached: a replica that lost Redis must leave the load balancer's rotation within one probe.
    const [providers, stateProblem] = await Promise.all([probe(), options.stateProblem?.()]);
    const providerReachable = Object.values(providers).some(Boolean);
    if (providerReachable && stateProblem === undefined) return { status: 'ready', providers, servers: serverReports() };
    const message = !providerReachable
      ? options.providers.length
        ? `No provider is reachable: ${options.providers.join(', ')}.`
        : 'No provider is configured.'
      : `The shared state is unavailable: ${stateProblem}`;
    return sendError(request, reply, gatewayError('not_ready', { message }));
  });
}
