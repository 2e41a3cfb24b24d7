/** ${VAR} and ${VAR:-default} in every string of a parsed config. */
import { describe, expect, it } from 'vitest';
import { interpolateEnvironment, MissingEnvironmentVariableError } from '../../src/config/interpolate-environment.js';

describe('interpolateEnvironment', () => {
  const environment = { HOST: 'example.org', PORT: '8443', EMPTY: '' };

  it('replaces variables anywhere in strings, several per string, deep in objects and arrays', () => {
    expect(
      interpolateEnvironment(
        { a: 'https://${HOST}:${PORT}/v1', list: ['${HOST}', 3, true, null], nested: { b: 'x-${PORT}-y' } },
        environment,
      ),
    ).toEqual({ a: 'https://example.org:8443/v1', list: ['example.org', 3, true, null], nested: { b: 'x-8443-y' } });
  });

  it('uses the default when the variable is unset or empty, and the value when it is set', () => {
    expect(interpolateEnvironment('${NOPE:-fallback}', environment)).toBe('fallback');
    expect(interpolateEnvironment('${EMPTY:-fallback}', environment)).toBe('fallback');
    expect(interpolateEnvironment('${HOST:-fallback}', environment)).toBe('example.org');
    expect(interpolateEnvironment('${NOPE:-}', environment)).toBe('');
  });

  it('leaves text without placeholders, and non-strings, untouched', () => {
    expect(interpolateEnvironment({ a: '$HOST', b: '{HOST}', c: 42 }, environment)).toEqual({ a: '$HOST', b: '{HOST}', c: 42 });
  });

  it('does not interpolate keys, only values', () => {
    expect(interpolateEnvironment({ '${HOST}': 'v' }, environment)).toEqual({ '${HOST}': 'v' });
  });

  it('throws naming the variable and the path of the value', () => {
    let caught: unknown;
    try {
      interpolateEnvironment({ providers: { local: { headers: ['ok', '${MISSING_ONE}'] } } }, environment);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(MissingEnvironmentVariableError);
    expect((caught as MissingEnvironmentVariableError).message).toBe(
      'providers.local.headers[1]: environment variable MISSING_ONE is not set',
    );
    expect(caught).toMatchObject({ variable: 'MISSING_ONE', path: 'providers.local.headers[1]' });
  });

  it('treats an empty variable without a default as missing', () => {
    expect(() => interpolateEnvironment({ key: '${EMPTY}' }, environment)).toThrow('key: environment variable EMPTY is not set');
  });
});
