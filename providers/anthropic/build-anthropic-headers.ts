/** Builds the headers of an Anthropic API call: auth, API version, betas, configured extras. */
import type { ProviderConfig } from '../../src/config/config-types.js';

/** The Messages API version this adapter speaks (https://docs.anthropic.com/en/api/versioning). */
export const anthropicApiVersion = '2023-06-01';

/** A header by name, whatever the case of its key. */
export function findHeader(headers: Record<string, string> | undefined, name: string): string | undefined {
  if (!headers) return undefined;
  for (const [key, value] of Object.entries(headers)) if (key.toLowerCase() === name) return value;
  return undefined;
}

/** Betas are a comma-separated list; the client's and the operator's are combined, not replaced. */
function combineBetas(...values: (string | undefined)[]): string | undefined {
  const betas = new Set<string>();
  for (const value of values) for (const beta of value?.split(',') ?? []) if (beta.trim()) betas.add(beta.trim());
  return betas.size > 0 ? [...betas].join(',') : undefined;
}

export function buildAnthropicHeaders(
  config: Pick<ProviderConfig, 'apiKey' | 'headers'>,
  /** `betas`: what the body needs (context editing's), added to the client's and the operator's. */
  options: { forwardHeaders?: Record<string, string>; json: boolean; betas?: readonly string[] },
): Record<string, string> {
  const headers: Record<string, string> = {
    'anthropic-version': findHeader(options.forwardHeaders, 'anthropic-version') ?? anthropicApiVersion,
  };
  if (options.json) headers['content-type'] = 'application/json';
  if (config.apiKey) headers['x-api-key'] = config.apiKey;
  // Configured headers win over our defaults (an operator may pin a version or use a proxy's auth).
  for (const [key, value] of Object.entries(config.headers)) headers[key.toLowerCase()] = value;
  const beta = combineBetas(headers['anthropic-beta'], findHeader(options.forwardHeaders, 'anthropic-beta'), options.betas?.join(','));
  if (beta) headers['anthropic-beta'] = beta;
  return headers;
}
