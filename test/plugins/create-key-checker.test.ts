/** The client key checker: exact matches only, and every key compared with timingSafeEqual on every check. */
import * as crypto from 'node:crypto';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createKeyChecker } from '../../src/plugins/client-auth.js';

vi.mock('node:crypto', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:crypto')>();
  return { ...actual, timingSafeEqual: vi.fn(actual.timingSafeEqual) };
});

const timingSafeEqual = vi.mocked(crypto.timingSafeEqual);

beforeEach(() => {
  timingSafeEqual.mockClear();
});

describe('createKeyChecker', () => {
  const check = createKeyChecker(['alpha-key', 'beta-key', 'gamma-key']);

  it('accepts each configured key exactly', () => {
    expect(check('alpha-key')).toBe(true);
    expect(check('beta-key')).toBe(true);
    expect(check('gamma-key')).toBe(true);
  });

  it('rejects anything else, including prefixes, suffixes, case changes and nothing', () => {
    for (const candidate of ['alpha', 'alpha-key ', 'ALPHA-KEY', 'alpha-keyX', '', 'beta-key\n'])
      expect(check(candidate), JSON.stringify(candidate)).toBe(false);
    expect(check(undefined)).toBe(false);
  });

  it('compares against every key with timingSafeEqual, with no early exit on a match', () => {
    check('alpha-key');
    expect(timingSafeEqual).toHaveBeenCalledTimes(3);
    timingSafeEqual.mockClear();
    check('wrong');
    expect(timingSafeEqual).toHaveBeenCalledTimes(3);
  });

  it('compares equal-length digests, so the key length does not leak through timing', () => {
    check('a');
    check('a much longer candidate key than any configured one');
    for (const [left, right] of timingSafeEqual.mock.calls) {
      expect((left as Buffer).length).toBe(32);
      expect((right as Buffer).length).toBe(32);
    }
  });

  it('accepts nothing when no keys are configured', () => {
    expect(createKeyChecker([])('anything')).toBe(false);
  });
});
