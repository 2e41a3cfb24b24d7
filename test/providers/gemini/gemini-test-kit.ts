/** Shared builders for the gemini adapter tests: config, request, context, event collection, a fake per file. */
import { afterAll, beforeAll } from 'vitest';
import type { ProviderConfig } from '../../../src/config/config-types.js';
import { defaultUpstreamLimits } from '../../../src/config/normalize-config.js';
import { type ChatRequest, type ProviderAdapter, type ResolvedModel } from '../../../src/core/index.js';
import { createGeminiAdapter } from '../../../providers/gemini/index.js';
import { startFakeGeminiUpstream, type FakeGeminiUpstream } from '../../helpers/fake-gemini-upstream.js';

export const testModel: ResolvedModel = {
  id: 'google/gemini-2.5-flash',
  provider: 'google',
  providerType: 'gemini',
  model: 'gemini-2.5-flash',
  family: 'generic-json',
  toolCalling: 'native',
};

export function testConfig(baseUrl: string, overrides: Partial<ProviderConfig> = {}): ProviderConfig {
  return {
    name: 'google',
    type: 'gemini',
    baseUrl,
    apiKey: 'gemini-test-key',
    headers: {},
    timeouts: { connectMs: 2_000, headersMs: 5_000, bodyMs: 5_000 },
    limits: { ...defaultUpstreamLimits },
    toolCalling: 'auto',
    models: {},
    ...overrides,
  };
}

export function testRequest(overrides: Partial<ChatRequest> = {}): ChatRequest {
  return { model: testModel, messages: [{ role: 'user', content: [{ type: 'text', text: 'Hello' }] }], ...overrides };
}

/** One fake Gemini and one adapter in front of it for the whole test file. */
export function useFakeGemini(): { upstream(): FakeGeminiUpstream; adapter(): ProviderAdapter } {
  let upstream: FakeGeminiUpstream | undefined;
  let adapter: ProviderAdapter | undefined;
  beforeAll(async () => {
    upstream = await startFakeGeminiUpstream();
    adapter = createGeminiAdapter(testConfig(upstream.url));
  });
  afterAll(async () => {
    await adapter?.close?.();
    await upstream?.close();
  });
  const started = <Value>(value: Value | undefined): Value => {
    if (value === undefined) throw new Error('the fake Gemini is not started yet');
    return value;
  };
  return { upstream: () => started(upstream), adapter: () => started(adapter) };
}

export { collectEvents, providerTestContext as testContext } from '../provider-test-kit.js';
