/**
 * A chat's targets tried in turn: a target that fails before its first byte (after its own retries,
 * src/pipeline/stream-with-retries.ts) hands over to the next one its fallbacks allow, planned again from the
 * client's request (src/pipeline/target-planner.ts). The target that answers has its reply capped (when read
 * whole), priced, and tapped for the run's listeners.
 */
import { fallbackKey } from '../config/normalize-fallbacks.js';
import type { ChatInput } from '../core/chat-request.js';
import type { ProviderContext } from '../core/provider-adapter.js';
import type { ResolvedModel } from '../core/resolved-model.js';
import { failureReason } from '../http/upstream-failure.js';
import type { ChatPipelineDependencies } from './chat-pipeline-dependencies.js';
import type { ChatRun, RunOptions, RunProgress } from './chat-run.js';
import type { TargetObserver } from './deployment-observer.js';
import { estimatedUsage } from './estimated-usage.js';
import type { FallbackTargets } from './fallback-targets.js';
import { pricedEvents } from './priced-events.js';
import type { ProviderDirectory } from './provider-directory.js';
import { RunListener } from './run-listener.js';
import { failureOf } from './stream-with-retries.js';
import { tapReply } from './tap-reply.js';
import type { TargetPlanner } from './target-planner.js';
import { capWholeReply } from './whole-reply-bound.js';

export class FallbackLoop {
  constructor(
    private readonly planner: TargetPlanner,
    private readonly providers: ProviderDirectory,
    private readonly fallbacks: FallbackTargets,
    private readonly dependencies: Pick<ChatPipelineDependencies, 'prices' | 'resilience'>,
  ) {}

  /** `fallbacks`: tried in order after `primary`; `observer`: a deployment's, told of each target's outcome. */
  async run(
    primary: ResolvedModel,
    fallbacks: readonly ResolvedModel[],
    input: ChatInput,
    context: ProviderContext,
    options: RunOptions,
    observer?: TargetObserver,
  ): Promise<ChatRun> {
    const attempts: RunProgress = options.progress ?? { count: 0 };
    for (let target = primary, position = 0; ; position++) {
      attempts.target = target;
      const sentAt = observer?.sending(target) ?? 0;
      try {
        const run = await this.planner.plan(target, input, context, options, attempts);
        // A reply read whole is capped in bytes by the target that answered (its time by wholeReplyDeadline).
        if (context.wholeReply === true)
          run.events = capWholeReply(run.events, {
            provider: target.provider,
            maxBytes: this.providers.config(target.provider).limits.maxResponseBytes,
          });
        const { prices } = this.dependencies;
        // Decided once per model (a memo lookup): a model without a known price adds no stage.
        if (prices?.knows(run.model)) run.events = pricedEvents(run.events, prices, run);
        return this.tapped(observer ? observer.answered(target, sentAt, run) : run, input, options);
      } catch (error) {
        // Abandoned before the upstream answered (a reply read whole, or a stream before its headers), the request
        // was billed all the same, and nothing of it was read (so only the prompt is counted).
        if (attempts.abandoned) options.onIncomplete?.(estimatedUsage(input, target, 0, this.dependencies.prices), target);
        const failure = context.cancellation.aborted ? undefined : failureOf(error, context);
        observer?.failed(target, failure);
        const next = fallbacks[position];
        if (!next || !failure || !this.fallbacks.handsOver(failure)) throw error;
        const handover = { provider: target.provider, model: target.model, reason: failureReason(failure) };
        context.log.info({ ...handover, fallback: fallbackKey(next), attempts: attempts.count }, 'falling back to the next target');
        this.dependencies.resilience?.observeFallback(handover);
        target = next;
      }
    }
  }

  /**
   * The run with its listeners told how the reply ends. A whole reply runs through its stages right here, so
   * the listener is told the run it belongs to.
   */
  private tapped(run: ChatRun, input: ChatInput, options: RunOptions): ChatRun {
    if (options.onFinish || options.onError || options.onIncomplete)
      run.events = tapReply(run.events, new RunListener(run, input, options, this.dependencies.prices));
    return run;
  }
}
