/**
 * Azure OpenAI's routes and authentication (https://learn.microsoft.com/azure/ai-foundry/openai/reference
 * and …/api-version-lifecycle): the v1 API (`/openai/v1/chat/completions`, the deployment name as `model`
 * in the body, no api-version), or a dated API version (`/openai/deployments/{deployment}/chat/completions
 * ?api-version=2024-10-21`). A key goes in the `api-key` header; without one, a Microsoft Entra ID token
 * (scope `https://cognitiveservices.azure.com/.default`) as a bearer. No model list: Azure's `models` route
 * lists the base models a resource could deploy, not the deployment names requests address, so `/v1/models`
 * shows the provider's configured `models:` instead.
 */
import type { ProviderConfig } from '../../src/config/config-types.js';
import type { OpenAiEndpoint } from '../openai/create-openai-adapter.js';

/** What Azure documents as the stable line; dated versions are for resources that cannot use it yet. */
export const defaultAzureApiVersion = 'v1';

/**
 * The first dated version with `max_completion_tokens`, `parallel_tool_calls` and `stream_options`
 * ("Changes between 2024-09-01-preview and 2024-08-01-preview",
 * https://learn.microsoft.com/azure/ai-services/openai/api-version-deprecation). Dates compare as text, and a
 * `-preview` suffix sorts after its date alone.
 */
const firstVersionWithCurrentFields = '2024-09-01';

export function azureOpenAiEndpoint(config: ProviderConfig, authorization?: () => Promise<Record<string, string>>): OpenAiEndpoint {
  const version = config.apiVersion ?? defaultAzureApiVersion;
  const endpoint: OpenAiEndpoint =
    version === 'v1'
      ? {
          chatPath: () => '/openai/v1/chat/completions',
          embeddingsPath: () => '/openai/v1/embeddings',
        }
      : {
          chatPath: (deployment) => `/openai/deployments/${encodeURIComponent(deployment)}/chat/completions?api-version=${version}`,
          embeddingsPath: (deployment) => `/openai/deployments/${encodeURIComponent(deployment)}/embeddings?api-version=${version}`,
        };
  if (authorization) endpoint.authorization = authorization;
  if (version !== 'v1' && version < firstVersionWithCurrentFields) endpoint.olderApi = true;
  return endpoint;
}
