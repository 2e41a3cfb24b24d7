/** A provider's identity as span attributes: GenAI provider name, server.address and server.port (never its key). */
import type { Attributes } from '@opentelemetry/api';
import { ATTR_SERVER_ADDRESS, ATTR_SERVER_PORT } from '@opentelemetry/semantic-conventions';
import type { ProviderConfig } from '../config/config-types.js';
import { gateway, genAi, type GenAiProviderNames } from './gen-ai-attributes.js';

export type UpstreamEndpoint = { attributes: Attributes };

export function upstreamEndpoint(provider: ProviderConfig, genAiProviderName: GenAiProviderNames): UpstreamEndpoint {
  const url = new URL(provider.baseUrl);
  const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  return {
    attributes: {
      [genAi.providerName]: genAiProviderName(provider.type),
      [gateway.provider]: provider.name,
      // The host only: a URL's user-info or query could carry a credential.
      [ATTR_SERVER_ADDRESS]: url.hostname,
      [ATTR_SERVER_PORT]: port,
    },
  };
}
