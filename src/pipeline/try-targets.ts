/**
 * Tries a request's targets in order until one answers, and decides what follows a target's failure for
 * every loop over targets (this one, which embeddings use, and a chat's, src/pipeline/fallback-loop.ts).
 * Each try is told to the deployment's observer (requests in flight, cooldowns); a failure hands over to
 * the next target only when it is an upstream failure that `fallbackOn` lists, or a server failure between
 * two targets of one deployment (a 4xx is about the request, and a client that left wants nothing more);
 * the last target's failure is the client's answer, except that a rate limit answers with the soonest time
 * any of the rate-limited targets said it accepts again.
 */
import { fallbackKey } from '../config/normalize-fallbacks.js';
import { GatewayError } from '../core/gateway-error.js';
import type { ProviderContext } from '../core/provider-adapter.js';
import type { ResolvedModel } from '../core/resolved-model.js';
import { upstreamRetryAfterMs } from '../http/retry-delay.js';
import { failureReason } from '../http/upstream-failure.js';
import type { TargetObserver } from './deployment-observer.js';
import type { FallbackTargets } from './fallback-targets.js';
import { failureOf, type AttemptCount, type ResilienceObserver } from './stream-with-retries.js';

/** Upstream requests made so far, and the target tried last (the reply's headers, an error reply's too). */
export type TargetProgress = AttemptCount & {
  target?: ResolvedModel;
  /** Set once a target answered 429 (src/pipeline/try-targets.ts). */
  rateLimits?: RateLimits;
};

/** The targets that answered 429: how many, and the soonest time (epoch ms) one said it accepts again. */
type RateLimits = {
  count: number;
  /** 0 when one of them said nothing of when (it may accept at once). */
  acceptsAgainAt: number;
};

/** What decides a hand-over: `fallbackOn` and the metrics; built once per pipeline. */
export type HandoverRules = {
  fallbacks: FallbackTargets;
  resilience?: ResilienceObserver | undefined;
};

export type TargetTries = HandoverRules & {
  context: ProviderContext;
  progress: TargetProgress;
  observer?: TargetObserver | undefined;
};

/** The first answer, with the target that gave it and when its request was sent (the observer's clock). */
export type TargetAnswer<Result> = { result: Result; target: ResolvedModel; sentAt: number };

export async function tryTargets<Result>(
  targets: readonly ResolvedModel[],
  attempt: (target: ResolvedModel) => Promise<Result>,
  tries: TargetTries,
): Promise<TargetAnswer<Result>> {
  const { context, progress, observer } = tries;
  for (let position = 0; ; position++) {
    const target = targets[position] as ResolvedModel;
    progress.target = target;
    const sentAt = observer?.sending(target) ?? 0;
    try {
      return { result: await attempt(target), target, sentAt };
    } catch (error) {
      const answer = afterFailedTarget(error, target, targets[position + 1], tries, context, progress, observer);
      if (answer !== handedOver) throw answer;
    }
  }
}

/** afterFailedTarget's answer when the next target is to be tried. */
export const handedOver: unique symbol = Symbol('handed over');

/**
 * After `target` failed with `error`: the observer and the metrics told, and either `handedOver` (try
 * `next`) or the error the client gets. Positional arguments, not an options object: a chat's loop calls it
 * with what it holds already, and nothing is built for a request that never fails.
 */
export function afterFailedTarget(
  error: unknown,
  target: ResolvedModel,
  next: ResolvedModel | undefined,
  rules: HandoverRules,
  context: ProviderContext,
  progress: TargetProgress,
  observer: TargetObserver | undefined,
): unknown {
  const failure = context.cancellation.aborted ? undefined : failureOf(error, context);
  const rateLimitedMs = failure?.type === 'status' && failure.status === 429 ? noteRateLimit(error, progress) : undefined;
  observer?.failed(target, failure, rateLimitedMs);
  if (!next || !failure || !(rules.fallbacks.handsOver(failure) || observer?.takesOver(target, next, failure) === true))
    return soonestRateLimit(error, progress);
  const handover = { provider: target.provider, model: target.model, reason: failureReason(failure) };
  context.log.info({ ...handover, fallback: fallbackKey(next), attempts: progress.count }, 'falling back to the next target');
  rules.resilience?.observeFallback(handover);
  return handedOver;
}

/**
 * Keeps the soonest time a rate-limited target accepts again (`retry-after-ms` or `retry-after`); returns
 * how long it asked to be left alone, when it said.
 */
function noteRateLimit(error: unknown, progress: TargetProgress): number | undefined {
  const now = Date.now();
  const waitMs = GatewayError.isInstance(error) ? upstreamRetryAfterMs(error, now) : undefined;
  // A 429 that says nothing of when may be over at once: nothing sooner can be said.
  const acceptsAt = waitMs === undefined ? 0 : now + waitMs;
  const seen = progress.rateLimits;
  if (!seen) progress.rateLimits = { count: 1, acceptsAgainAt: acceptsAt };
  else {
    seen.count++;
    seen.acceptsAgainAt = Math.min(seen.acceptsAgainAt, acceptsAt);
  }
  return waitMs;
}

/**
 * The client's answer when the last target failed. A 429 after other targets' 429s carries the soonest
 * time any of them accepts again, in seconds (the last one's own `retry-after` may be the latest of all);
 * with one that said nothing, no `retry-after` (the client's own backoff decides). Anything else, a lone
 * target's 429 included, is the last error as the upstream gave it.
 */
function soonestRateLimit(error: unknown, progress: TargetProgress): unknown {
  const seen = progress.rateLimits;
  if (!seen || seen.count < 2 || !GatewayError.isInstance(error) || error.upstreamStatus !== 429) return error;
  const acceptsAt = seen.acceptsAgainAt;
  const retryAfter = acceptsAt === 0 ? undefined : String(Math.max(0, Math.ceil((acceptsAt - Date.now()) / 1000)));
  if (retryAfter === error.retryAfter && error.retryAfterMs === undefined) return error;
  return new GatewayError({
    status: error.status,
    type: error.type,
    message: error.message,
    code: error.code,
    param: error.param,
    ...(retryAfter === undefined ? {} : { retryAfter }),
    upstreamStatus: error.upstreamStatus,
    ...(error.headers ? { headers: error.headers } : {}),
    upstreamBody: error.upstreamBody,
    cause: error,
  });
}
