/** A failure the caller's own cancellation caused is reported as that cause, not as an upstream failure. */
import { describe, expect, it } from 'vitest';
import { cancellationFromSignal } from '../../src/core/cancellation.js';
import { RequestCancellation } from '../../src/pipeline/request-cancellation.js';
import { GatewayError } from '../../src/core/gateway-error.js';
import { errorFromAbort, errorFromTransportFailure } from '../../src/http/upstream-error.js';

const socketError = Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' });

describe('errorFromTransportFailure', () => {
  it('is a 502 naming the provider when nothing was cancelled', () => {
    expect(errorFromTransportFailure(socketError, 'up')).toMatchObject({ status: 502, type: 'upstream_error' });
    expect(errorFromTransportFailure(socketError, 'up', new RequestCancellation())).toMatchObject({ status: 502 });
    expect(errorFromTransportFailure(socketError, 'up').message).toContain("'up'");
  });

  it('is what the cancellation says once it fired: a client that left, a timeout, or its own GatewayError', () => {
    const leaving = new RequestCancellation();
    leaving.abort(new Error('client closed the connection'));
    expect(errorFromTransportFailure(socketError, 'up', leaving)).toMatchObject({ status: 499, code: 'client_closed_request' });

    const signal = AbortSignal.abort(new DOMException('timed out', 'TimeoutError'));
    expect(errorFromTransportFailure(socketError, 'up', cancellationFromSignal(signal))).toMatchObject({
      status: 504,
      type: 'timeout_error',
    });

    const shutdown = new GatewayError({
      status: 503,
      type: 'server_error',
      code: 'server_shutting_down',
      message: 'The gateway is shutting down.',
    });
    expect(errorFromAbort(shutdown)).toBe(shutdown);
  });
});
