/** What a run tells about each target it tries, so that a deployment's balancer learns from every request. */
import { EventList } from '../core/event-list.js';
import { toGatewayError, type GatewayError } from '../core/gateway-error.js';
import type { ResolvedModel } from '../core/resolved-model.js';
import type { StreamEvent } from '../core/stream-event.js';
import { classifyWholeReplyFailure, type UpstreamFailure } from '../http/upstream-failure.js';
import type { Deployment } from '../config/config-types.js';
import { fallbackKey } from '../config/normalize-fallbacks.js';
import type { DeploymentBalancer } from './deployment-balancer.js';
import { estimateTextTokens } from './estimate-tokens.js';
import type { ChatRun } from './chat-run.js';

export type TargetObserver = {
  /** A request is about to go to the target; returns when it was sent. */
  sending(target: ResolvedModel): number;
  /** The target answered; may mark the run (its deployment) and watch its events to their end. */
  answered(target: ResolvedModel, sentAt: number, run: ChatRun): ChatRun;
  /**
   * The target's request failed before it answered (`failure` absent: not an upstream failure, e.g. bad
   * input); `rateLimitedMs`: a 429's retry-after, when it gave one.
   */
  failed(target: ResolvedModel, failure: UpstreamFailure | undefined, rateLimitedMs?: number): void;
  /**
   * Whether `next` takes over from `target` after `failure` whatever `fallbackOn` says: both are the
   * deployment's targets (the same model on another server) and `target` failed as a server does.
   */
  takesOver(target: ResolvedModel, next: ResolvedModel, failure: UpstreamFailure): boolean;
};

/** A server that cannot be reached, errs or keeps quiet is rested; a 4xx is about the request, not the server. */
export function coolsDown(failure: UpstreamFailure): boolean {
  return failure.type !== 'status' || failure.status >= 500;
}

/** Told how a reply to a target went: its finish (with its output tokens), a failure, and its end, however it came. */
export type ReplyWatcher = {
  /** The reply finished now, with this many output tokens (the upstream's count, else the gateway's estimate). */
  finished(outputTokens: number): void;
  /** The reply failed after the upstream answered (an error event, a stream that broke off). */
  failed(error: GatewayError): void;
  /** The reply is over: finished, failed, or the reader stopped early (a client that left). */
  ended(): void;
};

/**
 * The events unchanged, with `watcher` told of the finish and of the end. A reply read whole has ended
 * already (its body is in hand): told at once, and it stays an EventList.
 */
export function watchEvents(events: AsyncIterable<StreamEvent>, watcher: ReplyWatcher): AsyncIterable<StreamEvent> {
  if (events instanceof EventList) {
    const output = new OutputCount();
    for (const event of events.events) output.count(event, watcher);
    watcher.ended();
    return events;
  }
  return watchedStream(events, watcher);
}

async function* watchedStream(events: AsyncIterable<StreamEvent>, watcher: ReplyWatcher): AsyncIterable<StreamEvent> {
  const output = new OutputCount();
  try {
    for await (const event of events) {
      output.count(event, watcher);
      yield event;
    }
  } catch (error) {
    // A stream that broke off rather than ending in an error event.
    watcher.failed(toGatewayError(error));
    throw error;
  } finally {
    watcher.ended();
  }
}

/** The output a reply streamed, for its token count when the upstream gives none (src/pipeline/estimate-tokens.ts). */
class OutputCount {
  private characters = 0;

  count(event: StreamEvent, watcher: ReplyWatcher): void {
    switch (event.type) {
      case 'text-delta':
      case 'refusal-delta':
      case 'reasoning-delta':
        this.characters += event.delta.length;
        return;
      case 'tool-call-start':
        this.characters += event.name.length;
        return;
      case 'tool-call-delta':
        this.characters += event.argumentsDelta.length;
        return;
      case 'finish':
        watcher.finished(event.usage.outputTokens || estimateTextTokens(this.characters));
        return;
      case 'error':
        watcher.failed(event.error);
        return;
      default:
        return;
    }
  }
}

/**
 * The observer of one request to a deployment: its targets' requests in flight, latency and failures go
 * back to the balancer; targets outside it (the name's own fallbacks) are not the balancer's. A class
 * rather than an object of arrow functions: under tsx each named function made per request costs a
 * name patched onto it.
 */
export class DeploymentTargets implements TargetObserver {
  constructor(
    private readonly balancer: DeploymentBalancer,
    private readonly deployment: Deployment,
    private readonly members: readonly ResolvedModel[],
  ) {}

  sending(target: ResolvedModel): number {
    if (this.members.includes(target)) this.balancer.started(this.deployment, fallbackKey(target));
    return this.balancer.now();
  }

  /** The target's reply is timed to its finish, per output token (why: DeploymentBalancer.measured). */
  answered(target: ResolvedModel, sentAt: number, run: ChatRun): ChatRun {
    if (!this.members.includes(target)) return run;
    const model = fallbackKey(target);
    run.deployment = model;
    run.events = watchEvents(run.events, new TargetReply(this.balancer, this.deployment, model, sentAt));
    return run;
  }

  /** The target answered a request that is not timed (an embeddings request: no output tokens to time it by). */
  answeredUntimed(target: ResolvedModel): void {
    if (this.members.includes(target)) this.balancer.ended(this.deployment, fallbackKey(target));
  }

  /**
   * `fallbackOn` says what hands a request to another model (the name's own `fallbacks`); a server that is
   * down, erring or silent is rested, and its request is the next target's as well, or the request that
   * found it down would fail while the next ones go elsewhere.
   */
  takesOver(target: ResolvedModel, next: ResolvedModel, failure: UpstreamFailure): boolean {
    return coolsDown(failure) && this.members.includes(target) && this.members.includes(next);
  }

  failed(target: ResolvedModel, failure: UpstreamFailure | undefined, rateLimitedMs?: number): void {
    if (!this.members.includes(target)) return;
    const model = fallbackKey(target);
    this.balancer.ended(this.deployment, model);
    if (failure && coolsDown(failure)) this.balancer.failed(this.deployment, model);
    // A rate-limited target is healthy but said when it accepts again: until then every request would meet its 429 first.
    else if (rateLimitedMs !== undefined && rateLimitedMs > 0) this.balancer.restUntil(this.deployment, model, rateLimitedMs);
  }
}

/** One reply of a deployment's target, as its balancer learns of it. */
class TargetReply implements ReplyWatcher {
  constructor(
    private readonly balancer: DeploymentBalancer,
    private readonly deployment: Deployment,
    private readonly model: string,
    private readonly sentAt: number,
  ) {}

  finished(outputTokens: number): void {
    // A reply without output (an empty answer) is timed as one token: its wait still says how busy the target is.
    this.balancer.measured(this.deployment, this.model, (this.balancer.now() - this.sentAt) / Math.max(1, outputTokens));
  }

  /**
   * A server that accepted the request and then failed it (an error event, a body cut off) failed like one
   * answering 502 (classifyWholeReplyFailure): it rests as one failing before its headers does, or a
   * deployment would keep sending it its share of streams, each ending in an error. A client that left, a
   * 4xx and the gateway's own errors say nothing of the server.
   */
  failed(error: GatewayError): void {
    const failure = classifyWholeReplyFailure(error);
    if (failure && coolsDown(failure)) this.balancer.failed(this.deployment, this.model);
  }

  ended(): void {
    this.balancer.ended(this.deployment, this.model);
  }
}
