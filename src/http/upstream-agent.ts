/** One undici Agent per upstream, with the provider's timeouts and pool size. */
import { Agent } from 'undici';
import type { ProviderConfig } from '../config/config-types.js';

export function createUpstreamAgent(config: Pick<ProviderConfig, 'timeouts' | 'maxConnections'>): Agent {
  return new Agent({
    connect: { timeout: config.timeouts.connectMs },
    headersTimeout: config.timeouts.headersMs,
    bodyTimeout: config.timeouts.bodyMs,
    connections: config.maxConnections ?? null,
    keepAliveTimeout: 30_000,
    pipelining: 1,
  });
}
