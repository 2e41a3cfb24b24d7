/** The `ollama` provider's prober: the server kind is its type; what is asked is the version and each model's tools capability and identity. */
import type { ProviderConfig } from '../../src/config/config-types.js';
import type { ServerProber } from '../../src/core/server-profile.js';
import { probeHeaders } from '../../src/http/probe-json.js';
import { readOllamaModel, readOllamaProfile, type OllamaProbeTarget } from './ollama-model-capabilities.js';

export function createOllamaServerProber(config: ProviderConfig): ServerProber {
  const target: OllamaProbeTarget = { root: config.baseUrl.replace(/\/+$/, ''), headers: probeHeaders(config) };
  return {
    detect: (signal) => readOllamaProfile(target, 'configured', signal),
    readModel: (model, _profile, signal) => readOllamaModel(target, model, signal),
  };
}
