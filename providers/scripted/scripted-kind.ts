/** The `scripted` provider kind: no upstream; a replayed script, or the first-run demo model. */
import { providerKindConfigProperties } from '../../src/core/provider-types.js';
import { byModelFamily, type ProviderKind } from '../provider-kind.js';
import { createScriptedAdapter } from './index.js';

const scriptedConfigProperties = providerKindConfigProperties.scripted;

export const scriptedKind: ProviderKind<'scripted', typeof scriptedConfigProperties> = {
  type: 'scripted',
  hasUpstream: false,
  configProperties: scriptedConfigProperties,
  // The demo writes its calls in the family's syntax, so the prompted lane can be seen working.
  autoToolCalling: byModelFamily,
  detectsReasoningOpening: false,
  genAiProviderName: 'interlingua.scripted',
  createAdapter: (config, dependencies) => createScriptedAdapter(config, dependencies.renderCall),
};
