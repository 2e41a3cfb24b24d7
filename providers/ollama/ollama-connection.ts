/** What every call of one Ollama adapter shares: its UpstreamClient and the provider's headers, built once. */
import type { ProviderConfig } from '../../src/config/config-types.js';
import { withForwardedHeaders } from '../../src/http/headers-for-non-anthropic.js';
import { UpstreamClient } from '../../src/http/upstream-client.js';
import { version } from '../../src/version.js';

export type OllamaConnection = {
  client: UpstreamClient;
  provider: string;
  /** Lower-case names: configured headers win over the defaults, and the API key over a configured Authorization. */
  headers: Record<string, string>;
};

export function createOllamaConnection(config: ProviderConfig): OllamaConnection {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json',
    'user-agent': `interlingua/${version}`,
  };
  for (const [name, value] of Object.entries(config.headers)) headers[name.toLowerCase()] = value;
  if (config.apiKey) headers.authorization = `Bearer ${config.apiKey}`;
  return { client: new UpstreamClient(config), provider: config.name, headers };
}

/** A call's headers: the client's forwarded ones only where the provider sets no header of that name. */
export function ollamaHeaders(connection: OllamaConnection, forwarded: Record<string, string> | undefined): Record<string, string> {
  return withForwardedHeaders(connection.headers, forwarded);
}
