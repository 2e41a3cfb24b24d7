/**
 * The configuration used when no file is given: the providers each kind finds in the environment
 * (OPENAI_API_KEY, ANTHROPIC_API_KEY, OLLAMA_HOST or a local Ollama that answers, GEMINI_API_KEY); with none
 * of them, the scripted `demo` provider.
 */
import type { ProviderDiscovery } from '../core/provider-types.js';

/** Not yet a ConfigFile: load-config validates it like a file read from disk. */
export type DiscoveredFile = { providers: Record<string, Record<string, unknown>> };

/** `discovery`: the kinds and the local-server probe, from the provider registry (server.ts hands them in). */
export async function discoverProviders(
  environment: NodeJS.ProcessEnv,
  discovery: ProviderDiscovery,
): Promise<{ file: DiscoveredFile; notes: string[] }> {
  const { kinds: providerKinds, probe } = discovery;
  const providers: Record<string, Record<string, unknown>> = {};
  const notes: string[] = [];
  for (const kind of providerKinds) {
    const found = await kind.discover?.(environment, probe);
    if (found === undefined) continue;
    providers[found.name] = found.settings;
    notes.push(found.note);
  }
  if (notes.length === 0) {
    const hints = providerKinds.flatMap((kind) => (kind.discoveryHint === undefined ? [] : [kind.discoveryHint]));
    // A first run with nothing installed still has something to try: the prompted lane, end to end.
    providers.demo = { type: 'scripted' };
    notes.push(
      'no providers found: serving the demo provider "demo" (a scripted model: try model "demo/qwen3-8b" with tools, and see its tool call parsed back). ' +
        `For real models set ${hints.slice(0, -1).join(', ')} or ${hints.at(-1) ?? ''}, or pass --config FILE`,
    );
  }
  return { file: { providers }, notes };
}
