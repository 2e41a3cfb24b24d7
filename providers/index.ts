/**
 * The provider registry: every provider kind, listed once. The config's `type` enum, the `ProviderType`
 * union, discovery, tool-calling defaults, telemetry names and adapter dispatch all derive from this list.
 */
import type { ProviderConfig } from '../src/config/config-types.js';
import type { ProviderAdapter } from '../src/core/provider-adapter.js';
import { anthropicKind } from './anthropic/index.js';
import { geminiKind } from './gemini/index.js';
import { ollamaKind } from './ollama/index.js';
import { openAiKind } from './openai/index.js';
import { openAiCompatibleKind } from './openai-compatible/index.js';
import type { ProviderDependencies, ProviderKind } from './provider-kind.js';
import { scriptedKind } from './scripted/scripted-kind.js';

export type { ProviderDependencies } from './provider-kind.js';
/** Discovery's default probe (a local Ollama answering), named here so config sees providers only through this registry. */
export { localOllamaUrl, probeOllama } from './ollama/discover-ollama.js';

/** Discovery runs in this order, so it is also the order of the no-config providers. */
export const providerKinds = [openAiKind, openAiCompatibleKind, anthropicKind, ollamaKind, geminiKind, scriptedKind] as const;

export type ProviderType = (typeof providerKinds)[number]['type'];

export const providerTypeNames: readonly ProviderType[] = providerKinds.map((kind) => kind.type);

const kindsByType: ReadonlyMap<string, ProviderKind> = new Map(providerKinds.map((kind) => [kind.type, kind]));

export function providerKind(type: string): ProviderKind {
  const kind = kindsByType.get(type);
  // Unreachable for a validated config: the schema's enum is this list.
  if (kind === undefined) throw new Error(`unknown provider type '${type}'`);
  return kind;
}

export function createProviderAdapter(config: ProviderConfig, dependencies: ProviderDependencies): ProviderAdapter {
  return providerKind(config.type).createAdapter(config, dependencies);
}
