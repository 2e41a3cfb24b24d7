/** SecretRedactor: exact secrets of 8+ characters, raw or JSON-escaped, longest first; errors copied only when they hold one. */
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../src/core/gateway-error.js';
import { SecretRedactor } from '../../src/core/secret-redactor.js';

describe('SecretRedactor', () => {
  const redactor = new SecretRedactor(['sk-abcdefgh', 'sk-abcdefgh-longer', 'short', 'quo"te\\secret']);

  it('replaces every occurrence, the longer of two overlapping secrets whole', () => {
    expect(redactor.redact('a sk-abcdefgh b sk-abcdefgh-longer c sk-abcdefgh')).toBe('a [REDACTED] b [REDACTED] c [REDACTED]');
  });

  it('leaves secrets shorter than 8 characters, and text without secrets, untouched', () => {
    const text = 'a short word';
    expect(redactor.redact(text)).toBe(text);
  });

  it('finds a secret in JSON text, escaped as JSON writes it', () => {
    const line = JSON.stringify({ message: 'key quo"te\\secret' });
    expect(redactor.redact(line)).toBe('{"message":"key [REDACTED]"}');
    expect(redactor.redact('raw quo"te\\secret')).toBe('raw [REDACTED]');
  });

  it('copies an error only when its message or upstream body holds a secret', () => {
    const clean = new GatewayError({ status: 401, type: 'authentication_error', message: 'nope', upstreamBody: { error: 'nope' } });
    expect(redactor.redactError(clean)).toBe(clean);
    const leaking = new GatewayError({
      status: 401,
      type: 'authentication_error',
      code: 'bad_key',
      message: 'key sk-abcdefgh',
      retryAfter: '3',
      upstreamBody: { error: { message: 'key sk-abcdefgh' } },
    });
    const redacted = redactor.redactError(leaking);
    expect(redacted.message).toBe('key [REDACTED]');
    expect(redacted.upstreamBody).toEqual({ error: { message: 'key [REDACTED]' } });
    expect([redacted.status, redacted.type, redacted.code, redacted.retryAfter]).toEqual([401, 'authentication_error', 'bad_key', '3']);
    // What the gateway's retries read survives redaction.
    const overloaded = new GatewayError({
      status: 502,
      type: 'upstream_error',
      message: 'busy, key sk-abcdefgh',
      upstreamStatus: 503,
      retryAfterMs: '250',
    });
    expect([redactor.redactError(overloaded).upstreamStatus, redactor.redactError(overloaded).retryAfterMs]).toEqual([503, '250']);
  });

  it('is inactive, and returns errors as they are, with no secret long enough', () => {
    const none = new SecretRedactor(['1234567']);
    expect(none.active).toBe(false);
    const error = new GatewayError({ status: 500, type: 'server_error', message: '1234567' });
    expect(none.redactError(error)).toBe(error);
  });
});
