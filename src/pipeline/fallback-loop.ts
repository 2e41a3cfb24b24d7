/**
 * A chat's targets tried in turn: a target that fails before its first byte (after its own retries,
 * src/pipeline/stream-with-retries.ts) hands over to the next one its fallbacks allow, planned again from the
 * client's request (src/pipeline/target-planner.ts). A stream with a target still after it is opened first
 * (src/pipeline/opened-stream.ts), so that one failing right after its headers hands over too. The target
 * that answers has its reply capped (when read whole), priced, and tapped for the run's listeners.
 *
 * Why not tryTargets (src/pipeline/try-targets.ts), which embeddings use: its loop takes the targets as one
 * array, each try as a closure and returns an answer object, which a chat would build on every request (the
 * plain one-target, no-fallback path included: issue 27 counts each allocation there). What a failure leads
 * to (the observer, `fallbackOn`, the log line and metrics, a rate limit's answer) is decided by the one
 * function both loops call, afterFailedTarget, only once a target failed.
 */
import type { ChatInput } from '../core/chat-request.js';
import type { ProviderContext } from '../core/provider-adapter.js';
import type { ResolvedModel } from '../core/resolved-model.js';
import type { ChatPipelineDependencies } from './chat-pipeline-dependencies.js';
import type { ChatRun, RunOptions, RunProgress } from './chat-run.js';
import type { TargetObserver } from './deployment-observer.js';
import { estimatedUsage } from './estimated-usage.js';
import type { FallbackTargets } from './fallback-targets.js';
import { pricedEvents } from './priced-events.js';
import type { ProviderDirectory } from './provider-directory.js';
import { openedStream } from './opened-stream.js';
import { RunListener } from './run-listener.js';
import { tapReply } from './tap-reply.js';
import type { TargetPlanner } from './target-planner.js';
import { afterFailedTarget, handedOver, type HandoverRules } from './try-targets.js';
import { capWholeReply } from './whole-reply-bound.js';

export class FallbackLoop {
  private readonly handover: HandoverRules;

  constructor(
    private readonly planner: TargetPlanner,
    private readonly providers: ProviderDirectory,
    fallbacks: FallbackTargets,
    private readonly dependencies: Pick<ChatPipelineDependencies, 'prices' | 'resilience'>,
  ) {
    this.handover = { fallbacks, resilience: dependencies.resilience };
  }

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
      // Whether the stream answered and is being opened (src/pipeline/opened-stream.ts): nothing has reached the client.
      let opening = false;
      try {
        const run = await this.planner.plan(target, input, context, options, attempts);
        // Held while a target is left to move on to, and for the last one once earlier targets failed: its
        // failure is then an honest error status too. A plain request (one target, none failed) adds no stage.
        if (context.wholeReply !== true && (position < fallbacks.length || position > 0)) {
          opening = true;
          run.events = await openedStream(run.events);
          opening = false;
        }
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
        // A stream that failed while it opened failed before the client saw a byte, like a reply read whole.
        const failedContext = opening ? unsentReplyContext(context) : context;
        if (opening && context.cancellation.aborted) attempts.abandoned = true;
        // Abandoned before the upstream answered (a reply read whole, or a stream before its headers), the request
        // was billed all the same, and nothing of it was read (so only the prompt is counted). A target that
        // failed on its own (an error status, a refused connection) is not: docs/cost-and-budgets.md says why.
        if (attempts.abandoned) options.onIncomplete?.(estimatedUsage(input, target, 0, this.dependencies.prices), target);
        const answer = afterFailedTarget(error, target, fallbacks[position], this.handover, failedContext, attempts, observer);
        if (answer !== handedOver) throw answer;
        target = fallbacks[position] as ResolvedModel;
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

/** The request's context, its failures read as those of a reply nothing of which reached the client (failureOf). */
function unsentReplyContext(context: ProviderContext): ProviderContext {
  return { cancellation: context.cancellation, requestId: context.requestId, log: context.log, wholeReply: true };
}
