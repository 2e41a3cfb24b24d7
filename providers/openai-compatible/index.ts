/** The `openai-compatible` provider kind: vLLM, llama.cpp, LM Studio, OpenRouter and other /v1 servers. */
import type { ProviderConfig } from '../../src/config/config-types.js';
import type { ProviderAdapter } from '../../src/core/provider-adapter.js';
import type { OpenAiBodyCaches } from '../openai/build-openai-request-body.js';
import { createOpenAiAdapter } from '../openai/create-openai-adapter.js';

export function createOpenAiCompatibleProvider(config: ProviderConfig, caches?: OpenAiBodyCaches): ProviderAdapter {
  return createOpenAiAdapter(config, 'openai-compatible', caches);
}
