/** The `ollama` provider's prober: the server kind is its type; what is asked is the version and each model's tools capability. */
import type { ProviderConfig } from '../../src/config/config-types.js';
import type { ServerProber } from '../../src/core/server-profile.js';
import { probeHeaders } from '../../src/http/probe-json.js';
import { ollamaModelHasTools, readOllamaProfile, type OllamaProbeTarget } from './ollama-model-capabilities.js';

export function createOllamaServerProber(config: ProviderConfig): ServerProber {
  const target: OllamaProbeTarget = { root: config.baseUrl.replace(/\/+$/, ''), headers: probeHeaders(config) };
  return {
    detect: (signal) => readOllamaProfile(target, 'configured', signal),
    modelParsesToolCalls: (model, _profile, signal) => ollamaModelHasTools(target, model, signal),
  };
}
