/**
 * The configured providers by name: their config and their adapter. Built in app.ts and given to what
 * needs a provider directly (the models and embeddings routes, the pipeline), so that ChatPipeline
 * only runs generations.
 */
import type { GatewayConfig, ProviderConfig } from '../config/config-types.js';
import { gatewayError } from '../core/gateway-error.js';
import { ownValue } from '../core/own-value.js';
import type { ProviderAdapter } from '../core/provider-adapter.js';

export class ProviderDirectory {
  constructor(
    private readonly gatewayConfig: Pick<GatewayConfig, 'providers'>,
    private readonly adapters: ReadonlyMap<string, ProviderAdapter>,
  ) {}

  names(): string[] {
    return Object.keys(this.gatewayConfig.providers);
  }

  config(name: string): ProviderConfig {
    const config = ownValue(this.gatewayConfig.providers, name);
    if (!config) throw gatewayError('internal_error', { message: `Provider '${name}' is not configured.` });
    return config;
  }

  adapter(name: string): ProviderAdapter {
    const adapter = this.adapters.get(name);
    if (!adapter) throw gatewayError('internal_error', { message: `Provider '${name}' has no adapter.` });
    return adapter;
  }
}
