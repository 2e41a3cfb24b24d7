/**
 * SecretRedactor: exact secrets of 8+ characters, raw, JSON-escaped (once or twice) or URL-encoded (hex in either case), longest
 * first; errors copied only when they hold one, and never broken by a secret holding `"` or `\`.
 */
import fc from 'fast-check';
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

  it('takes the hex of a percent escape in either case, and nothing else of the secret', () => {
    const slashed = new SecretRedactor(['sk/ab:cd/ef']);
    expect(slashed.redact('key=sk%2Fab%3Acd%2Fef')).toBe('key=[REDACTED]');
    expect(slashed.redact('key=sk%2fab%3acd%2fef')).toBe('key=[REDACTED]');
    expect(slashed.redact('key=sk%2fab%3Acd%2Fef')).toBe('key=[REDACTED]');
    // Only the escapes' hex letters: the secret's own letters keep their case, and a raw `%2f` is not a `/`.
    expect(slashed.redact('key=SK%2fab%3acd%2fef')).toBe('key=SK%2fab%3acd%2fef');
    expect(new SecretRedactor(['sk-abcdefgh']).redact('SK-ABCDEFGH')).toBe('SK-ABCDEFGH');
  });

  it('is inactive, and returns errors as they are, with no secret long enough', () => {
    const none = new SecretRedactor(['1234567']);
    expect(none.active).toBe(false);
    const error = new GatewayError({ status: 500, type: 'server_error', message: '1234567' });
    expect(none.redactError(error)).toBe(error);
  });
});

/** `encoded` with the hex digits of its percent escapes in lowercase, or alternating (upper, lower, upper, …). */
function percentCase(encoded: string, casing: 'lower' | 'mixed'): string {
  let escapes = 0;
  return encoded.replace(/%[0-9A-F]{2}/g, (escape) => (casing === 'lower' || escapes++ % 2 === 1 ? escape.toLowerCase() : escape));
}

/** The spellings a secret takes in text bound for a client or a log. */
const spellings = {
  raw: (secret: string) => secret,
  'JSON-escaped': (secret: string) => JSON.stringify(secret).slice(1, -1),
  'JSON-escaped twice': (secret: string) => JSON.stringify(JSON.stringify(secret)).slice(3, -3),
  'JSON-escaped three times': (secret: string) => JSON.stringify(JSON.stringify(JSON.stringify(secret))).slice(7, -7),
  'URL-encoded': (secret: string) => encodeURIComponent(secret),
  'URL-encoded, lowercase hex': (secret: string) => percentCase(encodeURIComponent(secret), 'lower'),
  'URL-encoded, mixed-case hex': (secret: string) => percentCase(encodeURIComponent(secret), 'mixed'),
  'form-encoded, lowercase hex': (secret: string) =>
    percentCase(new URLSearchParams({ key: secret }).toString().slice('key='.length), 'lower'),
  'form-encoded': (secret: string) => new URLSearchParams({ key: secret }).toString().slice('key='.length),
};

describe('SecretRedactor: secrets holding quotes, backslashes and other escaped characters', () => {
  const onlyEscapes = '"\\'.repeat(4);
  const shorter = 'sk-a"b\\cdefgh';
  const longer = `${shorter} and "more"\\`;
  const redactor = new SecretRedactor([onlyEscapes, shorter, longer]);

  it.each(Object.entries(spellings))('finds a secret made only of quotes and backslashes, %s', (_name, spell) => {
    expect(redactor.redact(`before ${spell(onlyEscapes)} after`)).toBe('before [REDACTED] after');
  });

  it.each(Object.entries(spellings))('replaces a secret whole when another is its prefix, %s', (_name, spell) => {
    expect(spell(longer).startsWith(spell(shorter))).toBe(true);
    expect(redactor.redact(`1 ${spell(longer)} 2 ${spell(shorter)} 3`)).toBe('1 [REDACTED] 2 [REDACTED] 3');
  });

  it('finds it in a log line quoting an upstream body that quotes it (JSON inside JSON)', () => {
    const upstreamBody = JSON.stringify({ error: { message: `Incorrect API key: ${longer}` } });
    const logLine = JSON.stringify({ level: 50, upstreamBody });
    expect(JSON.parse(redactor.redact(logLine))).toEqual({
      level: 50,
      upstreamBody: JSON.stringify({ error: { message: 'Incorrect API key: [REDACTED]' } }),
    });
  });

  it('redacts an upstream body string by string, so that a secret ending in a backslash cannot break it', () => {
    // In the body's JSON text `12345678\"` holds `12345678\`: replacing there would leave `[REDACTED]"`, no JSON.
    const endsInBackslash = new SecretRedactor(['12345678\\']);
    const body = { error: { message: 'code 12345678" is wrong' } };
    const error = new GatewayError({ status: 400, type: 'invalid_request_error', message: 'bad', upstreamBody: body });
    expect(endsInBackslash.redactError(error)).toBe(error);
    const leaking = new GatewayError({ ...error, message: 'bad', upstreamBody: { error: { message: 'key 12345678\\ and 12345678"' } } });
    expect(endsInBackslash.redactError(leaking).upstreamBody).toEqual({ error: { message: 'key [REDACTED] and 12345678"' } });
  });

  it('redacts secrets in upstream body keys too, and keeps a `__proto__` key an own property', () => {
    const keyed = JSON.parse(`{"__proto__": 1, "${JSON.stringify(shorter).slice(1, -1)}": "x"}`) as unknown;
    const error = new GatewayError({ status: 400, type: 'invalid_request_error', message: 'bad', upstreamBody: keyed });
    const redacted = redactor.redactError(error).upstreamBody as Record<string, unknown>;
    expect(Object.keys(redacted)).toEqual(['__proto__', '[REDACTED]']);
    expect(Object.getPrototypeOf(redacted)).toBe(Object.prototype);
  });

  // Characters JSON or URLs escape, and a filler that shares none of them (nor of their escapes).
  const escapedCharacter = fc.constantFrom('"', '\\', '\n', '%', '+', ' ', '/', 'é', 'a', 'B');
  const secretArbitrary = fc.array(escapedCharacter, { minLength: 8, maxLength: 16 }).map((characters) => characters.join(''));
  const filler = fc.array(fc.constantFrom('x', 'y', 'z', '-', ':'), { maxLength: 12 }).map((characters) => characters.join(''));

  it('property: any such secret is replaced whole in each spelling, and only it', () => {
    fc.assert(
      fc.property(secretArbitrary, fc.constantFrom(...Object.values(spellings)), filler, filler, (secret, spell, before, after) => {
        const text = `${before}${spell(secret)}${after}`;
        expect(new SecretRedactor([secret]).redact(text)).toBe(`${before}[REDACTED]${after}`);
      }),
    );
  });

  it('property: redacting an upstream body never throws and never leaves a spelling of the secret in it', () => {
    const text = fc
      .array(fc.oneof(escapedCharacter, fc.constantFrom('x', '1')), { maxLength: 40 })
      .map((characters) => characters.join(''));
    // Plain characters, then one JSON escapes: its raw spelling is what can match across an escape.
    const plainThenEscaped = fc
      .tuple(fc.array(fc.constantFrom('a', 'B', '1'), { minLength: 7, maxLength: 12 }), escapedCharacter)
      .map(([characters, last]) => `${characters.join('')}${last}`);
    fc.assert(
      fc.property(fc.oneof(secretArbitrary, plainThenEscaped), text, text, (secret, left, right) => {
        const secretRedactor = new SecretRedactor([secret]);
        const upstreamBody = { error: { message: `${left}${secret}${right}`, nearly: `${left}${secret.slice(0, -1)}"${right}` } };
        const error = new GatewayError({ status: 401, type: 'authentication_error', message: 'no', upstreamBody });
        const redacted = JSON.stringify(secretRedactor.redactError(error).upstreamBody);
        expect(redacted).not.toContain(JSON.stringify(secret).slice(1, -1));
      }),
    );
  });
});
