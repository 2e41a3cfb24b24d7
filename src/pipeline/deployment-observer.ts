/** What a run tells about each target it tries, so that a deployment's balancer learns from every request. */
import type { ResolvedModel } from '../core/resolved-model.js';
import type { StreamEvent } from '../core/stream-event.js';
import type { UpstreamFailure } from '../http/upstream-failure.js';
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

/** The events unchanged, and `ended` once when they end, fail or the reader stops early (a client that left). */
export async function* afterEvents(events: AsyncIterable<StreamEvent>, ended: () => void): AsyncIterable<StreamEvent> {
  try {
    yield* events;
  } finally {
    ended();
  }
}
