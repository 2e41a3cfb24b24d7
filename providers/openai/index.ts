/** The `openai` provider kind: the OpenAI API itself. */
import type { ProviderConfig } from '../../src/config/config-types.js';
import type { ProviderAdapter } from '../../src/core/provider-adapter.js';
import type { OpenAiBodyCaches } from './build-openai-request-body.js';
import { createOpenAiAdapter } from './create-openai-adapter.js';

export function createOpenAiProvider(config: ProviderConfig, caches?: OpenAiBodyCaches): ProviderAdapter {
  return createOpenAiAdapter(config, 'openai', caches);
}
