/**
 * Tries a request's targets in order until one answers. Each try is told to the deployment's observer
 * (requests in flight, cooldowns); a failure hands over to the next target only when it is an upstream
 * failure that `fallbackOn` lists (a 4xx is about the request, and a client that left wants nothing more);
 * the last target's failure is the client's answer. Embeddings use it; a chat's loop (ChatPipeline's) follows
 * the same rules with steps of its own between tries (each target planned anew, an abandoned request charged).
 */
import { fallbackKey } from '../config/normalize-fallbacks.js';
import type { ProviderContext } from '../core/provider-adapter.js';
import type { ResolvedModel } from '../core/resolved-model.js';
import { failureReason } from '../http/upstream-failure.js';
import type { TargetObserver } from './deployment-observer.js';
import type { FallbackTargets } from './fallback-targets.js';
import { failureOf, type AttemptCount, type ResilienceObserver } from './stream-with-retries.js';

/** Upstream requests made so far, and the target tried last (the reply's headers, an error reply's too). */
export type TargetProgress = AttemptCount & { target?: ResolvedModel };

export type TargetTries = {
  context: ProviderContext;
  progress: TargetProgress;
  /** Whether a failure hands over (`fallbackOn`). */
  fallbacks: FallbackTargets;
  observer?: TargetObserver | undefined;
  resilience?: ResilienceObserver | undefined;
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
      const failure = context.cancellation.aborted ? undefined : failureOf(error, context);
      observer?.failed(target, failure);
      const next = targets[position + 1];
      if (!next || !failure || !tries.fallbacks.handsOver(failure)) throw error;
      const handover = { provider: target.provider, model: target.model, reason: failureReason(failure) };
      context.log.info({ ...handover, fallback: fallbackKey(next), attempts: progress.count }, 'falling back to the next target');
      tries.resilience?.observeFallback(handover);
    }
  }
}
