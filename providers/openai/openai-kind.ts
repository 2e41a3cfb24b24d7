/** The `openai` provider kind: the OpenAI API itself. */
import { alwaysNative, type ProviderKind } from '../provider-kind.js';
import { createOpenAiAdapter } from './create-openai-adapter.js';

export const openAiKind: ProviderKind<'openai'> = {
  type: 'openai',
  hasUpstream: true,
  autoToolCalling: alwaysNative,
  detectsReasoningOpening: false,
  genAiProviderName: 'openai',
  discoveryHint: 'OPENAI_API_KEY',
  discover(environment) {
    if (!environment.OPENAI_API_KEY) return undefined;
    return {
      name: 'openai',
      settings: { type: 'openai', baseUrl: environment.OPENAI_BASE_URL || 'https://api.openai.com/v1', apiKey: environment.OPENAI_API_KEY },
      note: 'provider "openai" from OPENAI_API_KEY',
    };
  },
  createAdapter: (config) => createOpenAiAdapter(config, 'openai'),
};
