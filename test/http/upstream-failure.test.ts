/** Which errors are upstream failures (and which of those a retry may fix); the gateway's own refusals never are. */
import { describe, expect, it } from 'vitest';
import { RequestCancellation } from '../../src/pipeline/request-cancellation.js';
import { GatewayError, gatewayError, invalidRequest } from '../../src/core/gateway-error.js';
import { errorFromTransportFailure, errorFromUpstreamStatus } from '../../src/http/upstream-error.js';
import { classifyUpstreamFailure, classifyWholeReplyFailure, failureReason, isRetryable } from '../../src/http/upstream-failure.js';

const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
const headersTimeout = Object.assign(new Error('Headers Timeout Error'), { code: 'UND_ERR_HEADERS_TIMEOUT' });

describe('classifyUpstreamFailure', () => {
  it('reads the upstream status (a 503 is passed on as one)', () => {
    const error = errorFromUpstreamStatus({ status: 503, body: { error: { message: 'busy', code: 'overloaded' } }, provider: 'up' });
    expect(error.status).toBe(503);
    expect(classifyUpstreamFailure(error)).toEqual({ type: 'status', status: 503 });
  });

  it('tells connect errors from timeouts', () => {
    expect(classifyUpstreamFailure(errorFromTransportFailure(refused, 'up'))).toEqual({ type: 'connect' });
    expect(classifyUpstreamFailure(errorFromTransportFailure(headersTimeout, 'up'))).toEqual({ type: 'timeout' });
  });

  it('is nothing for the gateway’s own errors: bad input, a shutdown, a client that left', () => {
    const leaving = new RequestCancellation();
    leaving.abort(new Error('client closed the connection'));
    expect(classifyUpstreamFailure(invalidRequest('bad'))).toBeUndefined();
    expect(classifyUpstreamFailure(gatewayError('server_shutting_down', {}))).toBeUndefined();
    expect(classifyUpstreamFailure(errorFromTransportFailure(refused, 'up', leaving))).toBeUndefined();
    expect(classifyUpstreamFailure(new Error('plain'))).toBeUndefined();
    expect(
      classifyUpstreamFailure(
        new GatewayError({ status: 502, type: 'upstream_error', code: 'upstream_stream_error', message: 'mid-stream' }),
      ),
    ).toBeUndefined();
  });
});

describe('classifyWholeReplyFailure', () => {
  it('counts a 2xx reply that failed while read whole as a server failure: nothing reached the client yet', () => {
    const errorBody = gatewayError('upstream_error', { message: "Upstream provider 'up' failed: boom" });
    expect(classifyUpstreamFailure(errorBody)).toBeUndefined();
    expect(classifyWholeReplyFailure(errorBody)).toEqual({ type: 'status', status: 502 });
    expect(classifyWholeReplyFailure(gatewayError('overloaded', { message: 'overloaded' }))).toEqual({ type: 'status', status: 502 });
  });

  it('keeps what says nothing of the server: a reply too large, a scripted error, a 4xx, the gateway’s own errors', () => {
    expect(classifyWholeReplyFailure(gatewayError('upstream_response_too_large', { message: 'large' }))).toBeUndefined();
    expect(classifyWholeReplyFailure(gatewayError('scripted_error', { status: 503, message: 'scripted' }))).toBeUndefined();
    expect(classifyWholeReplyFailure(invalidRequest('bad'))).toBeUndefined();
    expect(classifyWholeReplyFailure(errorFromTransportFailure(headersTimeout, 'up'))).toEqual({ type: 'timeout' });
  });
});

describe('isRetryable', () => {
  it('retries connect errors, timeouts, 408, 429 and 5xx, and no other 4xx', () => {
    const statuses = [400, 401, 403, 404, 408, 409, 422, 429, 500, 502, 503, 504];
    expect(statuses.filter((status) => isRetryable({ type: 'status', status }))).toEqual([408, 429, 500, 502, 503, 504]);
    expect(isRetryable({ type: 'connect' })).toBe(true);
    expect(isRetryable({ type: 'timeout' })).toBe(true);
  });

  it('labels failures for metrics and logs', () => {
    expect(
      [{ type: 'status', status: 503 } as const, { type: 'connect' } as const, { type: 'timeout' } as const].map(failureReason),
    ).toEqual(['http_503', 'connect', 'timeout']);
  });
});
