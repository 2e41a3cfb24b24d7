/** The `anthropic` provider kind: Anthropic's Messages API. */
import { firstPartyBaseUrls } from '../../src/core/provider-types.js';
import { alwaysNative, discoverFromApiKey, type ProviderKind } from '../provider-kind.js';
import { createAnthropicAdapter } from './create-anthropic-adapter.js';

export const anthropicKind: ProviderKind<'anthropic'> = {
  type: 'anthropic',
  hasUpstream: true,
  autoToolCalling: alwaysNative,
  detectsReasoningOpening: false,
  genAiProviderName: 'anthropic',
  discoveryHint: 'ANTHROPIC_API_KEY',
  discover: discoverFromApiKey({
    name: 'anthropic',
    type: 'anthropic',
    keyVariable: 'ANTHROPIC_API_KEY',
    baseUrlVariable: 'ANTHROPIC_BASE_URL',
    defaultBaseUrl: firstPartyBaseUrls.anthropic,
  }),
  createAdapter: (config, dependencies) => createAnthropicAdapter(config, undefined, dependencies.refusals),
};
