/** The `azure-openai` provider kind: OpenAI models deployed in an Azure resource. */
import type { ProviderConfig } from '../../src/config/config-types.js';
import { providerKindConfigProperties } from '../../src/core/provider-types.js';
import type { ProviderAdapter } from '../../src/core/provider-adapter.js';
import type { OpenAiBodyCaches } from '../openai/build-openai-request-body.js';
import { createOpenAiAdapter } from '../openai/create-openai-adapter.js';
import { alwaysNative, type ProviderKind } from '../provider-kind.js';
import { azureOpenAiEndpoint } from './azure-endpoint.js';
import { entraAuthorization, entraCredential } from './entra-token.js';
import type { TokenCredential } from '@azure/identity';

const azureConfigProperties = providerKindConfigProperties['azure-openai'];

/** `credential`: where Entra tokens come from when the provider has no `apiKey` (tests give their own). */
export function createAzureOpenAiAdapter(config: ProviderConfig, caches?: OpenAiBodyCaches, credential?: TokenCredential): ProviderAdapter {
  if (config.apiKey) {
    // Azure's header for keys; the shared OpenAI headers would send the key as a bearer.
    const { apiKey, ...rest } = config;
    return createOpenAiAdapter(
      { ...rest, headers: { ...config.headers, 'api-key': apiKey } },
      'openai',
      caches,
      azureOpenAiEndpoint(config),
    );
  }
  const authorization = entraAuthorization(credential ?? entraCredential(config), config.name);
  return createOpenAiAdapter(config, 'openai', caches, azureOpenAiEndpoint(config, authorization));
}

export const azureOpenAiKind: ProviderKind<'azure-openai', typeof azureConfigProperties> = {
  type: 'azure-openai',
  hasUpstream: true,
  configProperties: azureConfigProperties,
  // Deployments of OpenAI's own models: native tool calling.
  autoToolCalling: alwaysNative,
  detectsReasoningOpening: false,
  // OpenTelemetry's GenAI name for Azure OpenAI.
  genAiProviderName: 'azure.ai.openai',
  createAdapter: (config, dependencies) => createAzureOpenAiAdapter(config, dependencies.caches),
};
