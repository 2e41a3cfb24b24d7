/**
 * The configuration used when no file is given: providers found in the environment
 * (OPENAI_API_KEY, ANTHROPIC_API_KEY, OLLAMA_HOST) and a local Ollama when one answers; with none of
 * them, the scripted `demo` provider.
 */
import type { ConfigFile } from './validate-config-file.js';

export type OllamaProbe = (baseUrl: string) => Promise<boolean>;

export const localOllamaUrl = 'http://127.0.0.1:11434';

/** Asks Ollama for its version with a short timeout; any answer means it is there. */
export const probeOllama: OllamaProbe = async (baseUrl) => {
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

export async function discoverProviders(
  environment: NodeJS.ProcessEnv,
  probe: OllamaProbe = probeOllama,
): Promise<{ file: ConfigFile; notes: string[] }> {
  const providers: Record<string, Record<string, unknown>> = {};
  const notes: string[] = [];
  if (environment.OPENAI_API_KEY) {
    providers.openai = {
      type: 'openai',
      baseUrl: environment.OPENAI_BASE_URL || 'https://api.openai.com/v1',
      apiKey: environment.OPENAI_API_KEY,
    };
    notes.push('provider "openai" from OPENAI_API_KEY');
  }
  if (environment.ANTHROPIC_API_KEY) {
    providers.anthropic = {
      type: 'anthropic',
      baseUrl: environment.ANTHROPIC_BASE_URL || 'https://api.anthropic.com',
      apiKey: environment.ANTHROPIC_API_KEY,
    };
    notes.push('provider "anthropic" from ANTHROPIC_API_KEY');
  }
  if (environment.OLLAMA_HOST) {
    providers.ollama = { type: 'ollama', baseUrl: withScheme(environment.OLLAMA_HOST) };
    notes.push(`provider "ollama" from OLLAMA_HOST (${providers.ollama.baseUrl as string})`);
  } else if (await probe(localOllamaUrl)) {
    providers.ollama = { type: 'ollama', baseUrl: localOllamaUrl };
    notes.push(`provider "ollama": a local Ollama answered on ${localOllamaUrl}`);
  }
  if (notes.length === 0) {
    // A first run with nothing installed still has something to try: the prompted lane, end to end.
    providers.demo = { type: 'scripted' };
    notes.push(
      'no providers found: serving the demo provider "demo" (a scripted model: try model "demo/qwen3-8b" with tools, and see its tool call parsed back). ' +
        'For real models set OPENAI_API_KEY, ANTHROPIC_API_KEY or OLLAMA_HOST, or pass --config FILE',
    );
  }
  return { file: { providers }, notes };
}
