/**
 * Resolves a request's model string against the configuration: the provider prefix (split only at a
 * configured provider name), the upstream model id, its family and the tool-calling strategy.
 */
import { gatewayError } from '../core/gateway-error.js';
import { ownValue } from '../core/own-value.js';
import type { RecentMemo } from '../core/recent-memo.js';
import type { FamilyMatch } from '../core/request-caches.js';
import type { ResolvedModel, ToolCallingMode } from '../core/resolved-model.js';
import type { ProviderKindLookup } from '../core/provider-types.js';
import type { ServerDirectory } from '../core/server-directory.js';
import type { GatewayConfig, ProviderConfig, ToolCallingSetting } from './config-types.js';
import { detectModelFamily, detectReasoningOpening, familyFromIdentity, namedModelFamily } from './detect-model-family.js';

/** The model's own `toolCalling`, else the provider's: an explicit `native` or `prompted` always wins over detection. */
export function toolCallingSetting(provider: ProviderConfig, model: string): ToolCallingSetting {
  return ownValue(provider.models, model)?.toolCalling ?? provider.toolCalling;
}

function chooseToolCalling(
  kinds: ProviderKindLookup,
  provider: ProviderConfig,
  model: string,
  autoToolCalling: ToolCallingMode,
  servers: ServerDirectory | undefined,
): ToolCallingMode {
  const setting = toolCallingSetting(provider, model);
  if (setting !== 'auto') return setting;
  // What the server behind the provider parses itself, when it was found; else the families table's answer.
  return servers?.autoToolCalling(provider.name, model) ?? kinds(provider.type).autoToolCalling(model, autoToolCalling);
}

/**
 * What the model is, by its served name, else by what the server reports it to be (only asked when the
 * name names no family: a served name is often a bare alias, `vllm serve Qwen/Qwen3-8B --served-model-name
 * my-model`), else the table's default. `server` is the server's name that named the family.
 * A name of a hosted model (`gpt-4o`, `claude-…`: the table's generic-json entry) names no local family:
 * local servers are often started under such a name for clients that insist on one, so what the server
 * reports wins over it.
 */
function detectFamily(
  provider: ProviderConfig,
  model: string,
  families: RecentMemo<string, FamilyMatch> | undefined,
  servers: ServerDirectory | undefined,
): { match: FamilyMatch; server?: string } {
  const named = namedModelFamily(model, families);
  if (named && named.family !== hostedModelFamily) return { match: named };
  const identity = servers?.modelIdentity(provider.name, model);
  const reported = identity === undefined ? undefined : familyFromIdentity(identity, families);
  return reported ? { match: reported.match, server: reported.name } : { match: named ?? detectModelFamily(model, families) };
}

/** The family the table gives hosted models' names, and every name it does not know. */
const hostedModelFamily = 'generic-json';

/**
 * `kinds`: what each provider kind says (the registry's, handed in by app.ts); `families`: the requests'
 * memory of model families (RequestCaches.modelFamilies); `servers`: what answers each provider.
 */
export function resolveModelFor(
  kinds: ProviderKindLookup,
  provider: ProviderConfig,
  model: string,
  id: string,
  families?: RecentMemo<string, FamilyMatch>,
  servers?: ServerDirectory,
): ResolvedModel {
  const detected = detectFamily(provider, model, families, servers);
  const settings = ownValue(provider.models, model);
  const resolved: ResolvedModel = {
    id,
    provider: provider.name,
    providerType: provider.type,
    model,
    family: settings?.family ?? detected.match.family,
    toolCalling: chooseToolCalling(kinds, provider, model, detected.match.autoToolCalling, servers),
  };
  // An explicit family wins over anything the server says.
  if (settings?.family === undefined && detected.server !== undefined) resolved.familyFromServer = detected.server;
  // The configured server, else the detected one.
  const server = provider.server ?? (provider.type === 'ollama' ? 'ollama' : servers?.server(provider.name));
  const opening =
    settings?.startsInReasoning === undefined
      ? kinds(provider.type).detectsReasoningOpening
        ? (detectReasoningOpening(model, server) ??
          (detected.server === undefined ? undefined : detectReasoningOpening(detected.server, server)))
        : undefined
      : settings.startsInReasoning
        ? 'by-default'
        : undefined;
  if (opening !== undefined) resolved.opensInReasoning = opening;
  if (server !== undefined) resolved.server = server;
  return resolved;
}

/** Aliases resolve once: a target is never itself looked up as an alias. */
const noAliases: ReadonlyMap<string, string> = new Map();

/** What resolving reads of the config (so the config's own normalisation can resolve before it is whole). */
type ModelTable = Pick<GatewayConfig, 'providers' | 'aliases'>;

function unknownProvider(config: ModelTable, modelString: string, prefix: string | undefined): never {
  const names = Object.keys(config.providers);
  const listed = names.length ? names.join(', ') : '(none configured)';
  const what =
    prefix === undefined ? `Model '${modelString}' has no provider prefix` : `Unknown provider '${prefix}' in model '${modelString}'`;
  throw gatewayError('model_not_found', {
    message: `${what}. Address models as provider/model; configured providers: ${listed}.`,
    param: 'model',
  });
}

/** A model string's provider and upstream model, by the config alone (aliases followed, once). */
export type ModelAddress = { provider: ProviderConfig; model: string; id: string };

/**
 * @param modelString the body's `model`, e.g. `local/Qwen/Qwen3-8B`
 * @param providerName set by `POST /{provider}/v1/…`: the model is then taken whole
 */
export function resolveModelAddress(config: ModelTable, modelString: string, providerName?: string): ModelAddress {
  if (providerName !== undefined) {
    const provider = ownValue(config.providers, providerName);
    if (!provider) unknownProvider(config, `${providerName}/${modelString}`, providerName);
    return { provider, model: modelString, id: `${providerName}/${modelString}` };
  }
  const alias = config.aliases.get(modelString);
  if (alias !== undefined) {
    // The client keeps the name it asked for; the alias's target answers it.
    return { ...resolveModelAddress({ ...config, aliases: noAliases }, alias), id: modelString };
  }
  const slash = modelString.indexOf('/');
  const prefix = slash === -1 ? undefined : modelString.slice(0, slash);
  const provider = prefix === undefined ? undefined : ownValue(config.providers, prefix);
  if (!provider || prefix === undefined) return unknownProvider(config, modelString, prefix);
  const model = modelString.slice(slash + 1);
  if (!model)
    throw gatewayError('model_not_found', { message: `Model '${modelString}' names provider '${prefix}' but no model.`, param: 'model' });
  return { provider, model, id: modelString };
}

/** The model string resolved: its address, family and lane (see resolveModelFor for `kinds`, `families` and `servers`). */
export function resolveModel(
  kinds: ProviderKindLookup,
  config: ModelTable,
  modelString: string,
  providerName?: string,
  families?: RecentMemo<string, FamilyMatch>,
  servers?: ServerDirectory,
): ResolvedModel {
  const address = resolveModelAddress(config, modelString, providerName);
  return resolveModelFor(kinds, address.provider, address.model, address.id, families, servers);
}
