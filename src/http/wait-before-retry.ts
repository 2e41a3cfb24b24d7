/** A wait that the request's cancellation (the client going away, a shutdown) ends at once, with its error. */
import type { Cancellation } from '../core/cancellation.js';
import { errorFromAbort } from './upstream-error.js';

export type RetryWaitContext = { cancellation: Cancellation };

export function waitBeforeRetry(milliseconds: number, context: RetryWaitContext): Promise<void> {
  const { cancellation } = context;
  if (cancellation.aborted) return Promise.reject(errorFromAbort(cancellation.reason));
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(errorFromAbort(cancellation.reason));
    };
    const timer = setTimeout(() => {
      cancellation.removeListener('abort', onAbort);
      resolve();
    }, milliseconds);
    cancellation.once('abort', onAbort);
  });
}
