/**
 * A fake Anthropic for a whole test file, and adapters on it closed after each test: call
 * `useFakeAnthropic()` at the top of the file, then use `upstream` and `newAdapter`. `upstream` is a
 * live binding, set once beforeAll has run; vitest gives every test file its own instance of this module.
 */
import { afterAll, afterEach, beforeAll } from 'vitest';
import type { ProviderConfig } from '../../../src/config/config-types.js';
import type { ProviderAdapter } from '../../../src/core/index.js';
import { createAnthropicAdapter } from '../../../providers/anthropic/index.js';
import { startFakeAnthropicUpstream, type FakeAnthropicUpstream } from '../../helpers/fake-anthropic-upstream.js';
import { testConfig } from './anthropic-test-kit.js';

export let upstream: FakeAnthropicUpstream;
const adapters: ProviderAdapter[] = [];

export function useFakeAnthropic(): void {
  beforeAll(async () => {
    upstream = await startFakeAnthropicUpstream();
  });
  afterAll(async () => {
    await upstream.close();
  });
  afterEach(async () => {
    await Promise.all(adapters.splice(0).map((adapter) => adapter.close?.()));
  });
}

/** An adapter on the fake (or on `baseUrl`), closed after the test. */
export function newAdapter(overrides: Partial<ProviderConfig> = {}, baseUrl = upstream.url): ProviderAdapter {
  const adapter = createAnthropicAdapter(testConfig(baseUrl, overrides));
  adapters.push(adapter);
  return adapter;
}
