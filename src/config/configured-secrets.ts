/** Every secret a config holds, for the redactor: provider API keys and Entra client secrets, configured upstream and OTLP header values, a password in a provider's baseUrl, client keys, the metrics token, the Redis password. */
import type { GatewayConfig } from './config-types.js';

/** `Bearer abc…`, `Basic abc…`: the credential alone, which is what an upstream echoes as often as the whole value. */
const schemeAndCredential = /^(?:Bearer|Basic|Token|Key|Api-?Key|Bot)\s+(\S+)$/i;

/**
 * Every configured header value counts, whatever its name: the config cannot tell a secret header
 * (`x-api-key`, `cf-access-client-secret`, …) from a harmless one, and redacting a harmless value costs nothing.
 */
export function configuredSecrets(config: GatewayConfig): string[] {
  const secrets: string[] = [];
  for (const provider of Object.values(config.providers)) {
    if (provider.apiKey) secrets.push(provider.apiKey);
    if (provider.entra?.clientSecret) secrets.push(provider.entra.clientSecret);
    if (provider.vertex?.accessToken) secrets.push(provider.vertex.accessToken);
    if (provider.bedrock?.secretAccessKey) secrets.push(provider.bedrock.secretAccessKey);
    if (provider.bedrock?.sessionToken) secrets.push(provider.bedrock.sessionToken);
    // A proxy's basic auth written into the URL (`http://user:password@proxy/v1`), which it may echo.
    secrets.push(...urlPasswordForms(provider.baseUrl));
    for (const value of Object.values(provider.headers)) {
      secrets.push(value);
      const credential = schemeAndCredential.exec(value)?.[1];
      if (credential) secrets.push(credential);
    }
  }
  // An OTLP vendor's key rides in an export header.
  for (const value of Object.values(config.telemetry?.headers ?? {})) secrets.push(value);
  for (const key of config.server.apiKeys as unknown[]) {
    // A key with a policy is an object (`{ key, name, … }`) in configs that have client policies.
    if (typeof key === 'string') secrets.push(key);
    else if (key && typeof key === 'object' && typeof (key as { key?: unknown }).key === 'string')
      secrets.push((key as { key: string }).key);
  }
  if (config.metrics?.token) secrets.push(config.metrics.token);
  secrets.push(...urlPasswordForms(config.state?.redis));
  return secrets;
}

/** The password of a `redis://user:password@host` (or http) URL, as written (percent-encoded) and as sent. */
function urlPasswordForms(url: string | undefined): string[] {
  if (!url) return [];
  try {
    const written = new URL(url).password;
    if (!written) return [];
    const sent = decodeURIComponent(written);
    return sent === written ? [written] : [written, sent];
  } catch {
    return [];
  }
}
