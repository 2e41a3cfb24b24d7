/**
 * Microsoft Entra ID bearer tokens for Azure OpenAI, from `@azure/identity`: the configured service
 * principal (`entra.tenantId`, `clientId`, `clientSecret`), else DefaultAzureCredential (environment,
 * workload identity, managed identity, Azure CLI). A token is kept until five minutes before it expires,
 * so a request pays for a token only once an hour or so.
 */
import type { TokenCredential } from '@azure/identity';
import type { ProviderConfig } from '../../src/config/config-types.js';
import { gatewayError } from '../../src/core/gateway-error.js';

const scope = 'https://cognitiveservices.azure.com/.default';
const renewBeforeMs = 5 * 60_000;

/**
 * The credential, with `@azure/identity` loaded on the first token asked for: the library is several MB of
 * heap and start-up time that a gateway without an Azure provider, or whose Azure provider has a key, never pays.
 */
export function entraCredential(config: ProviderConfig): TokenCredential {
  const { tenantId, clientId, clientSecret } = config.entra ?? {};
  let credential: Promise<TokenCredential> | undefined;
  const load = () =>
    (credential ??= import('@azure/identity').then((identity) =>
      tenantId && clientId && clientSecret
        ? new identity.ClientSecretCredential(tenantId, clientId, clientSecret)
        : new identity.DefaultAzureCredential(),
    ));
  return { getToken: async (scopes, options) => (await load()).getToken(scopes, options) };
}

/**
 * `authorization()` for the endpoint: one token shared by concurrent requests, fetched again before it
 * expires. A credential that yields none (no principal found, a wrong secret) is the gateway's upstream
 * failing it, a 502 naming what was tried, never the client's fault; the next request asks again.
 */
export function entraAuthorization(credential: TokenCredential, provider: string): () => Promise<Record<string, string>> {
  let current: { header: Record<string, string>; renewAt: number } | undefined;
  let pending: Promise<Record<string, string>> | undefined;
  const failed = (detail: string) =>
    gatewayError('upstream_unavailable', {
      message: `Provider '${provider}': no Microsoft Entra ID token for Azure OpenAI (${detail}). Set apiKey, entra, or the AZURE_* variables of DefaultAzureCredential.`,
    });
  return async () => {
    if (current && Date.now() < current.renewAt) return current.header;
    pending ??= credential
      .getToken(scope)
      .then(
        (token) => {
          if (!token) throw failed('the credential returned none');
          current = { header: { authorization: `Bearer ${token.token}` }, renewAt: token.expiresOnTimestamp - renewBeforeMs };
          return current.header;
        },
        (error: unknown) => {
          throw failed((error as Error).message);
        },
      )
      .finally(() => (pending = undefined));
    return pending;
  };
}
