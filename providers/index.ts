/** The provider registry: one adapter factory per upstream kind. */
import type { ProviderConfig } from '../src/config/config-types.js';
import { assertNever } from '../src/core/assert-never.js';
import type { ProviderAdapter } from '../src/core/provider-adapter.js';
import type { RequestCaches } from '../src/core/request-caches.js';
import { createAnthropicAdapter } from './anthropic/index.js';
import { createOllamaAdapter } from './ollama/index.js';
import { createOpenAiProvider } from './openai/index.js';
import { createOpenAiCompatibleProvider } from './openai-compatible/index.js';
import { createScriptedAdapter, type RenderFamilyCall } from './scripted/index.js';

/** What app.ts lends the adapters that need more than their config. */
export type ProviderDependencies = {
  /** The scripted provider writes its model's calls in the model family's syntax. */
  renderCall: RenderFamilyCall;
  /** What the OpenAI kinds remember between requests (their tools' and long texts' JSON); nothing without it. */
  caches?: RequestCaches;
};

export function createProviderAdapter(config: ProviderConfig, dependencies: ProviderDependencies): ProviderAdapter {
  switch (config.type) {
    case 'openai':
      return createOpenAiProvider(config, dependencies.caches);
    case 'openai-compatible':
      return createOpenAiCompatibleProvider(config, dependencies.caches);
    case 'anthropic':
      return createAnthropicAdapter(config);
    case 'ollama':
      return createOllamaAdapter(config);
    case 'scripted':
      return createScriptedAdapter(config, dependencies.renderCall);
    default:
      return assertNever(config.type, 'provider type');
  }
}
