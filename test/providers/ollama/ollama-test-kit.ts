/** Shared builders for the Ollama adapter tests: config, resolved model, context, event collection. */
import type { ProviderConfig } from '../../../src/config/config-types.js';
import { defaultUpstreamLimits } from '../../../src/config/normalize-config.js';
import { type ChatRequest, type ProviderContext, type ResolvedModel, type StreamEvent } from '../../../src/core/index.js';
import { providerTestContext } from '../provider-test-kit.js';

export function ollamaConfig(baseUrl: string, overrides: Partial<ProviderConfig> = {}): ProviderConfig {
  return {
    name: 'local',
    type: 'ollama',
    baseUrl,
    headers: {},
    timeouts: { connectMs: 2000, headersMs: 5000, bodyMs: 5000 },
    limits: { ...defaultUpstreamLimits },
    toolCalling: 'auto',
    models: {},
    maxConnections: 8,
    ...overrides,
  };
}

export function resolvedModel(model = 'llama3.1:8b'): ResolvedModel {
  return { id: `local/${model}`, provider: 'local', providerType: 'ollama', model, family: 'llama3', toolCalling: 'native' };
}

export function chatRequest(overrides: Partial<ChatRequest> = {}): ChatRequest {
  return {
    model: resolvedModel(),
    messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
    ...overrides,
  };
}

export function textOf(events: StreamEvent[], type: 'text-delta' | 'reasoning-delta' = 'text-delta'): string {
  return events.map((event) => (event.type === type ? event.delta : '')).join('');
}

/** The last event, which the adapter contract says is exactly one `finish` or `error`. */
export function lastEvent(events: StreamEvent[]): StreamEvent {
  const last = events[events.length - 1];
  if (!last) throw new Error('no events');
  return last;
}

export { collectEvents, gatewayErrorOf as rejectionOf } from '../provider-test-kit.js';

export function providerContext(signal?: AbortSignal): ProviderContext {
  return providerTestContext(signal ? { signal } : {});
}
