/** What a provider kind is: everything the gateway knows about one kind of upstream, in one value per folder. */
import type { RefusalMemories } from '../src/core/refusal-memory.js';
import type { RequestCaches } from '../src/core/request-caches.js';
import type { ProviderConfig } from '../src/config/config-types.js';
import type { ProviderAdapter } from '../src/core/provider-adapter.js';
import type { ToolCallingMode } from '../src/core/resolved-model.js';
import type { ServerProber } from '../src/core/server-profile.js';
import type { DiscoveredProvider, DiscoveringKind, ProviderKindFacts } from '../src/core/provider-types.js';
import type { RenderFamilyCall } from './scripted/scripted-events.js';

/** What app.ts lends the adapters that need more than their config. */
export type ProviderDependencies = {
  /** The scripted provider writes its model's calls in the model family's syntax. */
  renderCall: RenderFamilyCall;
  /** What the OpenAI kinds remember between requests (their tools' and long texts' JSON); nothing without it. */
  caches?: RequestCaches;
  /** Where an adapter remembers what its upstream refused, for `server.refusalMemoryMs`; its own default memory without it. */
  refusals?: RefusalMemories;
};

export type { DiscoveredProvider, ServerProbe } from '../src/core/provider-types.js';

/**
 * `ConfigProperties` is the literal type of a kind's own settings (`as const`), so that the config
 * file's type, derived from its schema, has them too.
 */
export type ProviderKind<Type extends string = string, ConfigProperties extends object = object> = ProviderKindFacts &
  DiscoveringKind & {
    /** The config's `type`. */
    type: Type;
    /** `false` for kinds with no upstream (`scripted`): `baseUrl` is then not required. */
    hasUpstream: boolean;
    /** Config settings only this kind reads, as JSON Schema properties of a provider entry. */
    configProperties?: ConfigProperties;
    /** `gen_ai.provider.name`: the OpenTelemetry convention's well-known value where one fits. */
    genAiProviderName: string;
    createAdapter(config: ProviderConfig, dependencies: ProviderDependencies): ProviderAdapter;
    /** Kinds whose upstream may be one of several inference servers: finds out which, and what it parses itself. */
    createServerProber?(config: ProviderConfig): ServerProber;
  };

/** Every model of a first-party API has working native tools. */
export function alwaysNative(): ToolCallingMode {
  return 'native';
}

/** The model-families table decides: a server of open models may serve one without a tool parser. */
export function byModelFamily(_model: string, byFamily: ToolCallingMode): ToolCallingMode {
  return byFamily;
}

/** The usual discovery of a hosted API: a provider when its key variable is set, at its base-URL variable or the public URL. */
export function discoverFromApiKey(found: {
  name: string;
  type: string;
  keyVariable: string;
  baseUrlVariable: string;
  defaultBaseUrl: string;
}) {
  return (environment: NodeJS.ProcessEnv): DiscoveredProvider | undefined => {
    const apiKey = environment[found.keyVariable];
    if (!apiKey) return undefined;
    const baseUrl = environment[found.baseUrlVariable] || found.defaultBaseUrl;
    return {
      name: found.name,
      settings: { type: found.type, baseUrl, apiKey },
      note: `provider "${found.name}" from ${found.keyVariable}`,
    };
  };
}
