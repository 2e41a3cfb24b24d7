/**
 * The upstream agent seen through one more `dispatch`, so that a streamed request counts as sent
 * (Cancellation.upstreamSends) when undici writes it rather than when it is handed over: a request still
 * waiting for a connection (connecting, or queued behind a full pool) when its client leaves reached no
 * upstream, and is charged nothing (docs/cost-and-budgets.md). undici calls the handler's `onConnect` on a
 * connected socket just before it writes the request; a request cancelled before that is aborted unwritten.
 *
 * Why a dispatcher: `agent.request` builds its own handler (undici's RequestHandler), which only its
 * `dispatch` hands on. A body read whole has a handler of the gateway's own (request-whole-body.ts), which counts itself.
 */
import { Dispatcher, type Agent } from 'undici';
import { countUpstreamSend, type Cancellation } from '../core/cancellation.js';

/** undici's legacy handler callback, which its RequestHandler implements (with the connection's context as a second argument). */
type OnConnect = (abort: (error?: Error) => void, context?: unknown) => void;

export class SendCountingDispatcher extends Dispatcher {
  constructor(private readonly agent: Agent) {
    super();
  }

  override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    // The request options as openStream passes them: `signal` is its Cancellation (RequestOptions, not in DispatchOptions' type).
    const cancellation = (options as Dispatcher.RequestOptions).signal as Cancellation | undefined;
    // Only a cancellation that counts (a route's) costs the wrapper: a request without one dispatches as it was.
    if (cancellation?.upstreamSends !== undefined && typeof handler.onConnect === 'function')
      countOnConnect(handler as { onConnect: OnConnect }, cancellation);
    return this.agent.dispatch(options, handler);
  }
}

/** The handler's own onConnect, counting the send first (undici's handler then aborts it when cancelled). */
function countOnConnect(handler: { onConnect: OnConnect }, cancellation: Cancellation): void {
  const onConnect = handler.onConnect;
  handler.onConnect = (abort: (error?: Error) => void, context?: unknown) => {
    countUpstreamSend(cancellation);
    onConnect.call(handler, abort, context);
  };
}
