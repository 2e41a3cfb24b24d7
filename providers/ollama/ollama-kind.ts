/** The `ollama` provider kind: Ollama's native API. */
import { byModelFamily, type ProviderKind } from '../provider-kind.js';
import { createOllamaAdapter } from './create-ollama-adapter.js';
import { discoverOllama } from './discover-ollama.js';
import { createOllamaServerProber } from './ollama-server-prober.js';

export const ollamaKind: ProviderKind<'ollama'> = {
  type: 'ollama',
  hasUpstream: true,
  autoToolCalling: byModelFamily,
  // Ollama applies its own template and reads reasoning itself.
  detectsReasoningOpening: false,
  genAiProviderName: 'ollama',
  discoveryHint: 'OLLAMA_HOST',
  discover: discoverOllama,
  createAdapter: (config) => createOllamaAdapter(config),
  createServerProber: createOllamaServerProber,
};
