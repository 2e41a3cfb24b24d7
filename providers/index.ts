/** The provider registry: one adapter factory per upstream kind. */
import type { ProviderConfig } from '../src/config/config-types.js';
import { assertNever } from '../src/core/assert-never.js';
import type { ProviderAdapter } from '../src/core/provider-adapter.js';
import { createAnthropicAdapter } from './anthropic/index.js';
import { createOllamaAdapter } from './ollama/index.js';
import { createOpenAiProvider } from './openai/index.js';
import { createOpenAiCompatibleProvider } from './openai-compatible/index.js';

export function createProviderAdapter(config: ProviderConfig): ProviderAdapter {
  switch (config.type) {
    case 'openai':
      return createOpenAiProvider(config);
    case 'openai-compatible':
      return createOpenAiCompatibleProvider(config);
    case 'anthropic':
      return createAnthropicAdapter(config);
    case 'ollama':
      return createOllamaAdapter(config);
    default:
      return assertNever(config.type, 'provider type');
  }
}
