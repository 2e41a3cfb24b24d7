/** `server.apiKeys` entries (strings or policy objects) → named ClientKeys. */
import type { ClientKeyEntry } from './config-schema.js';
import type { ClientKey } from './config-types.js';

export function normalizeClientKeys(entries: readonly ClientKeyEntry[] | undefined): ClientKey[] {
  return (entries ?? []).map((entry, index) => {
    if (typeof entry === 'string') return { key: entry, name: `key-${index + 1}` };
    const clientKey: ClientKey = { key: entry.key, name: entry.name ?? `key-${index + 1}` };
    if (entry.models) clientKey.models = entry.models;
    if (entry.tools) clientKey.tools = entry.tools;
    if (entry.limits) clientKey.limits = entry.limits;
    if (entry.admin) clientKey.admin = true;
    if (entry.budget) clientKey.budget = entry.budget;
    return clientKey;
  });
}
