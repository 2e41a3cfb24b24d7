/** The `openai` provider kind: the OpenAI API itself. */
import { firstPartyBaseUrls } from '../../src/core/provider-types.js';
import { alwaysNative, discoverFromApiKey, type ProviderKind } from '../provider-kind.js';
import { createOpenAiAdapter } from './create-openai-adapter.js';

export const openAiKind: ProviderKind<'openai'> = {
  type: 'openai',
  hasUpstream: true,
  autoToolCalling: alwaysNative,
  detectsReasoningOpening: false,
  genAiProviderName: 'openai',
  discoveryHint: 'OPENAI_API_KEY',
  discover: discoverFromApiKey({
    name: 'openai',
    type: 'openai',
    keyVariable: 'OPENAI_API_KEY',
    baseUrlVariable: 'OPENAI_BASE_URL',
    defaultBaseUrl: firstPartyBaseUrls.openai,
  }),
  createAdapter: (config, dependencies) => createOpenAiAdapter(config, 'openai', dependencies.caches),
};
