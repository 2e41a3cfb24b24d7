/** GET /health (readiness for orchestrators and the conformance runner) and HEAD / (Claude Code's probe). */
import type { FastifyInstance } from 'fastify';

export function registerHealthRoutes(app: FastifyInstance, options: { providers: string[]; version: string }): void {
  app.get('/health', async () => ({ status: 'ok', version: options.version, providers: options.providers }));
  app.head('/', async (_request, reply) => reply.status(200).send());
}
