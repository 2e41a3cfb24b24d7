/** ProviderDirectory: configured providers by name, their config and adapter; an unknown name is a 500 in the gateway's error shape. */
import { describe, expect, it } from 'vitest';
import type { ProviderConfig } from '../../src/config/config-types.js';
import { GatewayError } from '../../src/core/gateway-error.js';
import type { ProviderAdapter } from '../../src/core/provider-adapter.js';
import { ProviderDirectory } from '../../src/pipeline/provider-directory.js';

const local = { name: 'local', type: 'openai-compatible' } as ProviderConfig;
const adapter: ProviderAdapter = { stream: async () => [] as unknown as AsyncIterable<never> };

describe('ProviderDirectory', () => {
  const directory = new ProviderDirectory({ providers: { local } }, new Map([['local', adapter]]));

  it('names the configured providers and hands out their config and adapter', () => {
    expect(directory.names()).toEqual(['local']);
    expect(directory.config('local')).toBe(local);
    expect(directory.adapter('local')).toBe(adapter);
  });

  it('refuses a name that is not configured, or configured without an adapter, and never reads inherited keys', () => {
    const bare = new ProviderDirectory({ providers: { local } }, new Map());
    for (const lookup of [() => directory.config('toString'), () => directory.adapter('other'), () => bare.adapter('local')]) {
      expect(lookup).toThrow(GatewayError);
      try {
        lookup();
      } catch (error) {
        expect((error as GatewayError).status).toBe(500);
      }
    }
  });
});
