/**
 * One target's upstream call with its provider's retries: bounded in count and in each wait, only while
 * the adapter has not resolved (it resolves on 2xx headers, before any byte goes to the client), and only
 * for failures that another try may fix. After that, a failure ends the stream as usual: a tool call
 * must never run twice.
 */
import type { RetrySettings } from '../config/config-types.js';
import { sentSince } from '../core/cancellation.js';
import type { ChatRequest } from '../core/chat-request.js';
import { GatewayError, toGatewayError } from '../core/gateway-error.js';
import type { ProviderAdapter, ProviderContext } from '../core/provider-adapter.js';
import type { ResolvedModel } from '../core/resolved-model.js';
import type { StreamEvent } from '../core/stream-event.js';
import { retryDelayMs } from '../http/retry-delay.js';
import {
  classifyUpstreamFailure,
  classifyWholeReplyFailure,
  failureReason,
  isRetryable,
  type UpstreamFailure,
} from '../http/upstream-failure.js';
import { waitBeforeRetry } from '../http/wait-before-retry.js';

/** One retry or fallback, as metrics count it: the target that failed, and how. */
export type UpstreamHandover = { provider: string; model: string; reason: string };

/** Told of each failed upstream call, retry and fallback (the app's metrics); optional, like every observer of the pipeline. */
export type ResilienceObserver = {
  /** A generation the upstream refused or failed before its first byte (errors inside a stream reach the reply's tap instead). */
  observeUpstreamError(provider: string, error: GatewayError): void;
  observeRetry(handover: UpstreamHandover): void;
  observeFallback(handover: UpstreamHandover): void;
};

/**
 * Upstream requests made for one client request, across its targets (the `x-interlingua-attempts` header);
 * `abandoned` once the request was cancelled (its client left, its deadline passed, a shutdown) while an
 * upstream request was in flight and already sent (Cancellation.upstreamSends): that upstream had the
 * request and may have billed it.
 */
export type AttemptCount = { count: number; abandoned?: true };

export type RetryOptions = {
  settings: RetrySettings | undefined;
  attempts: AttemptCount;
  observer?: ResilienceObserver | undefined;
  /** Injected for tests of the jitter; Math.random otherwise. */
  random?: () => number;
};

export function streamWithRetries(
  adapter: ProviderAdapter,
  request: ChatRequest,
  context: ProviderContext,
  options: RetryOptions,
): Promise<AsyncIterable<StreamEvent>> {
  return callWithRetries(() => adapter.stream(request, context), request.model, context, options);
}

/**
 * Any one upstream call to `model` (a chat's stream, an embeddings request) with its provider's retries:
 * the same failures retried, the same waits, the same counts and log lines.
 */
export async function callWithRetries<Result>(
  call: () => Promise<Result>,
  model: ResolvedModel,
  context: ProviderContext,
  options: RetryOptions,
): Promise<Result> {
  const { attempts, settings } = options;
  for (let retry = 1; ; retry++) {
    attempts.count++;
    const sendsBefore = context.cancellation.upstreamSends;
    try {
      return await call();
    } catch (error) {
      // Reported here, where the failure is caught anyway, rather than by a wrapper around every adapter
      // (a promise and a microtask more on every request that does not fail).
      options.observer?.observeUpstreamError(model.provider, toGatewayError(error));
      const failure = settings && retry <= settings.count ? failureOf(error, context) : undefined;
      const cancelled = context.cancellation.aborted;
      // Cancelled while still waiting for a connection (or for credentials), the request reached no upstream.
      if (cancelled && sentSince(context.cancellation, sendsBefore)) attempts.abandoned = true;
      if (!settings || !failure || !isRetryable(failure) || cancelled || !GatewayError.isInstance(error)) throw error;
      const delayMs = retryDelayMs(error, retry, settings, { now: Date.now(), random: options.random ?? Math.random });
      if (delayMs === undefined) throw error;
      const handover = { provider: model.provider, model: model.model, reason: failureReason(failure) };
      context.log.info({ ...handover, attempt: attempts.count, delayMs: Math.round(delayMs) }, 'retrying the upstream request');
      options.observer?.observeRetry(handover);
      await waitBeforeRetry(delayMs, context);
    }
  }
}

/** What kind of upstream failure an error is for this request: a reply read whole has more (upstream-failure.ts). */
export function failureOf(error: unknown, context: ProviderContext): UpstreamFailure | undefined {
  return context.wholeReply === true ? classifyWholeReplyFailure(error) : classifyUpstreamFailure(error);
}
