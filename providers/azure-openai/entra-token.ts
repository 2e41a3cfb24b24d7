/**
 * Microsoft Entra ID bearer tokens for Azure OpenAI, from `@azure/identity`: the configured service
 * principal (`entra.tenantId`, `clientId`, `clientSecret`), else DefaultAzureCredential (environment,
 * workload identity, managed identity, Azure CLI). A token is kept until five minutes before it expires,
 * so a request pays for a token only once an hour or so.
 */
import { ClientSecretCredential, DefaultAzureCredential, type TokenCredential } from '@azure/identity';
import type { ProviderConfig } from '../../src/config/config-types.js';
import { gatewayError } from '../../src/core/gateway-error.js';

const scope = 'https://cognitiveservices.azure.com/.default';
const renewBeforeMs = 5 * 60_000;

export function entraCredential(config: ProviderConfig): TokenCredential {
  const { tenantId, clientId, clientSecret } = config.entra ?? {};
  if (tenantId && clientId && clientSecret) return new ClientSecretCredential(tenantId, clientId, clientSecret);
  return new DefaultAzureCredential();
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
