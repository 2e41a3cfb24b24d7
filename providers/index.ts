/**
 * The provider registry: every provider kind, listed once. The config's `type` enum, the `ProviderType`
 * union, discovery, tool-calling defaults, telemetry names and adapter dispatch all derive from this list.
 */
import type { ProviderConfig } from '../src/config/config-types.js';
import type { ProviderAdapter } from '../src/core/provider-adapter.js';
import { anthropicKind } from './anthropic/anthropic-kind.js';
import { geminiKind } from './gemini/gemini-kind.js';
import { ollamaKind } from './ollama/ollama-kind.js';
import { openAiKind } from './openai/openai-kind.js';
import { openAiCompatibleKind } from './openai-compatible/index.js';
import type { ProviderDependencies, ProviderKind } from './provider-kind.js';
import { scriptedKind } from './scripted/scripted-kind.js';

export type { ProviderDependencies } from './provider-kind.js';

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
