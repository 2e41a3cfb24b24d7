/** `server.apiKeys` entries (strings or policy objects) → named ClientKeys. */
import { ConfigError } from './config-error.js';
import type { ClientKeyEntry } from './config-schema.js';
import type { ClientKey } from './config-types.js';
import { namedModelTargets, type ModelNames } from './model-name-targets.js';

/** `names`: the config's deployments and aliases, which a key's `models` cannot name (refuseModelNames). */
export function normalizeClientKeys(entries: readonly ClientKeyEntry[] | undefined, names: ModelNames = {}): ClientKey[] {
  const clientKeys = (entries ?? []).map((entry, index) => {
    if (typeof entry === 'string') return { key: entry, name: `key-${index + 1}`, fullAccess: true as const };
    const clientKey: ClientKey = { key: entry.key, name: entry.name ?? `key-${index + 1}` };
    if (entry.models) clientKey.models = entry.models;
    if (entry.tools) clientKey.tools = entry.tools;
    if (entry.limits) clientKey.limits = entry.limits;
    if (entry.admin) clientKey.admin = true;
    if (entry.budget) clientKey.budget = entry.budget;
    return clientKey;
  });
  refuseSharedNamesWithOtherPolicies(clientKeys);
  refuseOneKeyUnderTwoNames(clientKeys);
  refuseModelNames(clientKeys, names);
  return clientKeys;
}

/**
 * Rate-limit windows, budget spend and usage are counted by a key's name, and its limits and budget found
 * by it: two keys of one name are one client. That is right for a rotated key (old and new, same policy),
 * but two keys of different policies under one name (an explicit name equal to another key's `key-N`, a
 * name repeated by mistake) would spend each other's budget and share one key's limits.
 */
function refuseSharedNamesWithOtherPolicies(clientKeys: readonly ClientKey[]): void {
  const firstByName = new Map<string, { index: number; policy: string }>();
  const problems: string[] = [];
  clientKeys.forEach((clientKey, index) => {
    const { key: _key, name, fullAccess: _fullAccess, ...rest } = clientKey;
    const policy = JSON.stringify(rest);
    const first = firstByName.get(name);
    if (!first) firstByName.set(name, { index, policy });
    else if (first.policy !== policy)
      problems.push(
        `server.apiKeys.${index}: named '${name}' like server.apiKeys.${first.index}, with another policy; limits, budgets and usage are counted by name, so give each its own name`,
      );
  });
  if (problems.length) throw new ConfigError(problems);
}

/**
 * The same key text listed twice under different names (a `${TEAM_KEY}` pasted into a second entry) makes
 * one client two: the key finder takes the last entry that matches (src/plugins/client-auth.ts), so a
 * restricted key listed again without a policy would silently get full access. The message names the
 * entries, never the key.
 */
function refuseOneKeyUnderTwoNames(clientKeys: readonly ClientKey[]): void {
  const firstByKey = new Map<string, { index: number; name: string }>();
  const problems: string[] = [];
  clientKeys.forEach((clientKey, index) => {
    const first = firstByKey.get(clientKey.key);
    if (!first) firstByKey.set(clientKey.key, { index, name: clientKey.name });
    else if (first.name !== clientKey.name)
      problems.push(
        `server.apiKeys.${index}: the same key as server.apiKeys.${first.index} ('${first.name}'), under the name '${clientKey.name}'; a key must be listed once`,
      );
  });
  if (problems.length) throw new ConfigError(problems);
}

/**
 * A key's `models` are matched against the `provider/model` a request reaches (an alias or a deployment
 * by its targets: src/pipeline/access-policy.ts), so that an alias cannot widen a key. An entry that is an
 * alias's or a deployment's name therefore allows nothing, and the key's requests for that name were
 * refused with a 403 naming the target the operator never wrote: the config names the targets instead.
 */
function refuseModelNames(clientKeys: readonly ClientKey[], names: ModelNames): void {
  const problems: string[] = [];
  clientKeys.forEach((clientKey, index) => {
    clientKey.models?.forEach((glob, position) => {
      const named = namedModelTargets(glob, names);
      if (named)
        problems.push(
          `server.apiKeys.${index}.models.${position}: ${named.what}, and a key's models are matched by the provider/model a request reaches: allow ${named.targets}`,
        );
    });
  });
  if (problems.length) throw new ConfigError(problems);
}
