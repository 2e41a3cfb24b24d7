/** Replaces every secret the config holds (client keys, provider keys, header values) in a text. */
import type { GatewayConfig } from './config-types.js';

/** Shorter values are too likely to be ordinary words or numbers to be replaced everywhere. */
const shortestSecret = 8;

export const redactedMark = '[REDACTED]';

export function configuredSecrets(config: GatewayConfig): string[] {
  const secrets = new Set<string>(config.server.apiKeys);
  for (const provider of Object.values(config.providers)) {
    if (provider.apiKey) secrets.add(provider.apiKey);
    for (const value of Object.values(provider.headers)) secrets.add(value);
  }
  // Longest first, so a secret that contains another is replaced whole.
  return [...secrets].filter((secret) => secret.length >= shortestSecret).sort((left, right) => right.length - left.length);
}

export function createSecretRedactor(config: GatewayConfig): (text: string) => string {
  const secrets = configuredSecrets(config);
  return (text) => {
    let redacted = text;
    for (const secret of secrets) if (redacted.includes(secret)) redacted = redacted.split(secret).join(redactedMark);
    return redacted;
  };
}
