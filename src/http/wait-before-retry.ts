/** A wait that the request's cancellation (the client going away, a shutdown) ends at once, with its error. */
import type { Cancellation } from '../core/cancellation.js';
import { errorFromAbort } from './upstream-error.js';

/** Prefers the request's Cancellation (an emitter, cheap) and falls back to its AbortSignal. */
export type RetryWaitContext = { cancellation?: Cancellation; signal: AbortSignal };

export function waitBeforeRetry(milliseconds: number, context: RetryWaitContext): Promise<void> {
  const { cancellation } = context;
  const state = cancellation ?? context.signal;
  if (state.aborted) return Promise.reject(errorFromAbort(state.reason));
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(errorFromAbort(state.reason));
    };
    const timer = setTimeout(() => {
      if (cancellation) cancellation.off('abort', onAbort);
      else context.signal.removeEventListener('abort', onAbort);
      resolve();
    }, milliseconds);
    if (cancellation) cancellation.once('abort', onAbort);
    else context.signal.addEventListener('abort', onAbort, { once: true });
  });
}
