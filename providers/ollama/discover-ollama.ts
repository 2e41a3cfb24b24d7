/** Finds an Ollama from OLLAMA_HOST, or a local one that answers its version endpoint. */
import type { DiscoveredProvider, ServerProbe } from '../provider-kind.js';

export const localOllamaUrl = 'http://127.0.0.1:11434';

/** Asks Ollama for its version with a short timeout; any answer means it is there. */
export const probeOllama: ServerProbe = async (baseUrl) => {
  try {
    const response = await fetch(`${baseUrl}/api/version`, { signal: AbortSignal.timeout(500) });
    await response.body?.cancel();
    return response.ok;
  } catch {
    return false;
  }
};

function withScheme(host: string): string {
  const trimmed = host.trim().replace(/\/+$/, '');
  if (/^https?:\/\//.test(trimmed)) return trimmed;
  // OLLAMA_HOST is often written as `0.0.0.0:11434` or `host:port`.
  return `http://${trimmed.replace(/^0\.0\.0\.0/, '127.0.0.1')}`;
}

export async function discoverOllama(environment: NodeJS.ProcessEnv, probe: ServerProbe): Promise<DiscoveredProvider | undefined> {
  if (environment.OLLAMA_HOST) {
    const baseUrl = withScheme(environment.OLLAMA_HOST);
    return { name: 'ollama', settings: { type: 'ollama', baseUrl }, note: `provider "ollama" from OLLAMA_HOST (${baseUrl})` };
  }
  if (await probe(localOllamaUrl)) {
    return {
      name: 'ollama',
      settings: { type: 'ollama', baseUrl: localOllamaUrl },
      note: `provider "ollama": a local Ollama answered on ${localOllamaUrl}`,
    };
  }
  return undefined;
}
