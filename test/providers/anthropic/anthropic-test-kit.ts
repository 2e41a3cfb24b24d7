/** Shared builders for the anthropic adapter tests: config, request, context, event collection. */
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

export function testContext(signal: AbortSignal = new AbortController().signal): ProviderContext {
  return { cancellation: cancellationFromSignal(signal), requestId: 'request-1', log: silentLogger };
}

export async function collectEvents(events: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const collected: StreamEvent[] = [];
  for await (const event of events) collected.push(event);
  return collected;
}

/** Rejection of a promise, for asserting on GatewayError fields. */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the promise to reject');
}

/** Rejection of a promise that must be a GatewayError. */
export async function gatewayErrorOf(promise: Promise<unknown>): Promise<GatewayError> {
  const error = await rejectionOf(promise);
  if (!GatewayError.isInstance(error)) throw new Error(`expected a GatewayError, got ${String(error)}`);
  return error;
}
