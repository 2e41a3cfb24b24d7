/**
 * The provider registry: every provider kind with its code, listed once. Adapter dispatch, discovery,
 * tool-calling defaults and telemetry names derive from this list; the kind names the config reads live in
 * src/core/provider-types.ts (checked against this list below), and the lookups reach config, resolution
 * and telemetry through src/app.ts and src/server.ts.
 */
import type { ProviderConfig } from '../src/config/config-types.js';
import type { ProviderDiscovery, ProviderType, ServerProbe } from '../src/core/provider-types.js';
import { probeOllama } from './ollama/discover-ollama.js';
import type { ProviderAdapter } from '../src/core/provider-adapter.js';
import { anthropicKind } from './anthropic/index.js';
import { azureOpenAiKind } from './azure-openai/index.js';
import { vertexKind } from './vertex/index.js';
import { bedrockKind } from './bedrock/index.js';
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
export const providerKinds = [
  openAiKind,
  openAiCompatibleKind,
  anthropicKind,
  ollamaKind,
  geminiKind,
  azureOpenAiKind,
  vertexKind,
  bedrockKind,
  scriptedKind,
] as const;

export { providerTypeNames } from '../src/core/provider-types.js';

/** Both ways: a kind missing from src/core/provider-types.ts, or a name there without a kind here, fails to compile. */
type SameUnion<Left, Right> = [Left] extends [Right] ? ([Right] extends [Left] ? true : false) : false;
const kindsMatchTheirNames: SameUnion<(typeof providerKinds)[number]['type'], ProviderType> = true;
void kindsMatchTheirNames;

const kindsByType: ReadonlyMap<string, ProviderKind> = new Map(providerKinds.map((kind) => [kind.type, kind]));

export function providerKind(type: string): ProviderKind {
  const kind = kindsByType.get(type);
  // Unreachable for a validated config: the schema's enum is this list.
  if (kind === undefined) throw new Error(`unknown provider type '${type}'`);
  return kind;
}

/** `gen_ai.provider.name` of a kind (telemetry reads it through app.ts, never from here). */
export function genAiProviderName(type: string): string {
  return providerKind(type).genAiProviderName;
}

/** The kinds in discovery order with the local-Ollama probe (or a test's own), for src/config's discovery. */
export function providerDiscovery(probe: ServerProbe = probeOllama): ProviderDiscovery {
  return { kinds: providerKinds, probe };
}

export function createProviderAdapter(config: ProviderConfig, dependencies: ProviderDependencies): ProviderAdapter {
  return providerKind(config.type).createAdapter(config, dependencies);
}
