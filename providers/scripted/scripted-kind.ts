/** The `scripted` provider kind: no upstream; a replayed script, or the first-run demo model. */
import { byModelFamily, type ProviderKind } from '../provider-kind.js';
import { createScriptedAdapter } from './index.js';

/** The turns to replay (YAML or JSON), relative to the config file. */
const scriptedConfigProperties = { script: { type: 'string', minLength: 1 } } as const;

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
