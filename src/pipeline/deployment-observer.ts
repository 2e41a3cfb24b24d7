/** What a run tells about each target it tries, so that a deployment's balancer learns from every request. */
import { EventList } from '../core/event-list.js';
import type { ResolvedModel } from '../core/resolved-model.js';
import type { StreamEvent } from '../core/stream-event.js';
import type { UpstreamFailure } from '../http/upstream-failure.js';
import type { Deployment } from '../config/config-types.js';
import { fallbackKey } from '../config/normalize-fallbacks.js';
import type { DeploymentBalancer } from './deployment-balancer.js';
import type { ChatRun } from './chat-pipeline.js';

export type TargetObserver = {
  /** A request is about to go to the target; returns when it was sent. */
  sending(target: ResolvedModel): number;
  /** The target answered; may mark the run (its deployment) and watch its events to their end. */
  answered(target: ResolvedModel, sentAt: number, run: ChatRun): ChatRun;
  /** The target's request failed before it answered (`failure` absent: not an upstream failure, e.g. bad input). */
  failed(target: ResolvedModel, failure: UpstreamFailure | undefined): void;
};

/** A server that cannot be reached, errs or keeps quiet is rested; a 4xx is about the request, not the server. */
export function coolsDown(failure: UpstreamFailure): boolean {
  return failure.type !== 'status' || failure.status >= 500;
}

/**
 * The events unchanged, and `ended` once when they end, fail or the reader stops early (a client that left).
 * A reply read whole has ended already (its body is in hand): told at once, and it stays an EventList.
 */
export function afterEvents(events: AsyncIterable<StreamEvent>, ended: () => void): AsyncIterable<StreamEvent> {
  if (events instanceof EventList) {
    ended();
    return events;
  }
  return eventsThenEnded(events, ended);
}

async function* eventsThenEnded(events: AsyncIterable<StreamEvent>, ended: () => void): AsyncIterable<StreamEvent> {
  try {
    yield* events;
  } finally {
    ended();
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
    return performance.now();
  }

  answered(target: ResolvedModel, sentAt: number, run: ChatRun): ChatRun {
    if (!this.members.includes(target)) return run;
    const model = fallbackKey(target);
    this.balancer.answered(this.deployment, model, performance.now() - sentAt);
    run.deployment = model;
    run.events = afterEvents(run.events, () => this.balancer.ended(this.deployment, model));
    return run;
  }

  failed(target: ResolvedModel, failure: UpstreamFailure | undefined): void {
    if (!this.members.includes(target)) return;
    const model = fallbackKey(target);
    this.balancer.ended(this.deployment, model);
    if (failure && coolsDown(failure)) this.balancer.failed(this.deployment, model);
  }
}
