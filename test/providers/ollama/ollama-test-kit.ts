/** Shared builders for the Ollama adapter tests: config, resolved model, context, event collection. */
import { cancellationFromSignal } from '../../../src/core/cancellation.js';
import type { ProviderConfig } from '../../../src/config/config-types.js';
import { defaultUpstreamLimits } from '../../../src/config/normalize-config.js';
import {
  GatewayError,
  silentLogger,
  type ChatRequest,
  type ProviderContext,
  type ResolvedModel,
  type StreamEvent,
} from '../../../src/core/index.js';

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

export function providerContext(signal: AbortSignal = new AbortController().signal): ProviderContext {
  return { cancellation: cancellationFromSignal(signal), requestId: 'request-1', log: silentLogger };
}

export async function collectEvents(events: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const collected: StreamEvent[] = [];
  for await (const event of events) collected.push(event);
  return collected;
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

/** The rejection of a promise, which must be a GatewayError. */
export async function rejectionOf(promise: Promise<unknown>): Promise<GatewayError> {
  const outcome = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  if (!GatewayError.isInstance(outcome)) throw new Error(`expected a GatewayError rejection, got ${String(outcome)}`);
  return outcome;
}
