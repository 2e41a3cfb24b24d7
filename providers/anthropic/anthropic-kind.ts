/** The `anthropic` provider kind: Anthropic's Messages API. */
import { alwaysNative, type ProviderKind } from '../provider-kind.js';
import { createAnthropicAdapter } from './create-anthropic-adapter.js';

export const anthropicKind: ProviderKind<'anthropic'> = {
  type: 'anthropic',
  hasUpstream: true,
  autoToolCalling: alwaysNative,
  detectsReasoningOpening: false,
  genAiProviderName: 'anthropic',
  discoveryHint: 'ANTHROPIC_API_KEY',
  discover(environment) {
    if (!environment.ANTHROPIC_API_KEY) return undefined;
    return {
      name: 'anthropic',
      settings: { type: 'anthropic', baseUrl: environment.ANTHROPIC_BASE_URL || 'https://api.anthropic.com', apiKey: environment.ANTHROPIC_API_KEY },
      note: 'provider "anthropic" from ANTHROPIC_API_KEY',
    };
  },
  createAdapter: (config) => createAnthropicAdapter(config),
};
