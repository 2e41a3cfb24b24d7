/** POST /admin/reload: reads the config file again and serves new requests from it (admin keys only). */
import type { FastifyInstance } from 'fastify';
import { gatewayError } from '../../src/core/gateway-error.js';
import type { ReloadOutcome } from '../../src/live-gateway.js';

export function registerAdminRoutes(app: FastifyInstance, options: { reload: () => Promise<ReloadOutcome> }): void {
  app.post('/admin/reload', async (request) => {
    // Without client keys the gateway trusts its network, as for every other route.
    if (request.gatewayContext?.access && !request.gatewayContext.access.admin) throw gatewayError('admin_only', {});
    const outcome = await options.reload();
    if (outcome.reloaded) return { reloaded: true };
    if (outcome.refusal === 'config_invalid')
      throw gatewayError('config_invalid', { message: `The config file was refused; the running config is kept. ${outcome.reason}` });
    throw gatewayError('reload_failed', {
      message: `The new config's app failed to start; the running config is kept. ${outcome.reason}`,
    });
  });
}
