/** Shared builders for the anthropic adapter tests: config, request, context, event collection. */
import type { ProviderConfig } from '../../../src/config/config-types.js';
import { defaultUpstreamLimits } from '../../../src/config/normalize-config.js';
import { type ChatRequest, type ProviderContext, type ResolvedModel } from '../../../src/core/index.js';
import { providerTestContext } from '../provider-test-kit.js';

export const testModel: ResolvedModel = {
  id: 'claude/claude-fake-1',
  provider: 'claude',
  providerType: 'anthropic',
  model: 'claude-fake-1',
  family: 'claude',
  toolCalling: 'native',
};

export function testConfig(baseUrl: string, overrides: Partial<ProviderConfig> = {}): ProviderConfig {
  return {
    name: 'claude',
    type: 'anthropic',
    baseUrl,
    apiKey: 'sk-ant-test',
    headers: {},
    timeouts: { connectMs: 2_000, headersMs: 5_000, bodyMs: 5_000 },
    limits: { ...defaultUpstreamLimits },
    toolCalling: 'auto',
    models: {},
    maxConnections: 4,
    ...overrides,
  };
}

export function testRequest(overrides: Partial<ChatRequest> = {}): ChatRequest {
  return {
    model: testModel,
    messages: [{ role: 'user', content: [{ type: 'text', text: 'Hello' }] }],
    maxOutputTokens: 256,
    ...overrides,
  };
}

export { collectEvents, gatewayErrorOf, rejectionOf } from '../provider-test-kit.js';

export function testContext(signal?: AbortSignal): ProviderContext {
  return providerTestContext(signal ? { signal } : {});
}
