/** What every provider adapter's tests need: a request context, the events of a stream, and a rejection. */
import { cancellationFromSignal } from '../../src/core/cancellation.js';
import { GatewayError, silentLogger, type ProviderContext, type StreamEvent } from '../../src/core/index.js';

export function providerTestContext(options: { wholeReply?: boolean; signal?: AbortSignal } = {}): ProviderContext {
  const context: ProviderContext = {
    cancellation: cancellationFromSignal(options.signal ?? new AbortController().signal),
    requestId: 'request-1',
    log: silentLogger,
  };
  if (options.wholeReply) context.wholeReply = true;
  return context;
}

export async function collectEvents(events: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const collected: StreamEvent[] = [];
  for await (const event of events) collected.push(event);
  return collected;
}

/** Rejection of a promise, for asserting on what it was rejected with. */
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
