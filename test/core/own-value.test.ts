/** Lookups keyed by request input see own properties only. */
import { describe, expect, it } from 'vitest';
import { ownValue } from '../../src/core/own-value.js';

describe('ownValue', () => {
  it('finds own properties and nothing from Object.prototype', () => {
    const record: Record<string, number> = { local: 1 };
    expect(ownValue(record, 'local')).toBe(1);
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', 'isPrototypeOf'])
      expect(ownValue(record, name)).toBeUndefined();
  });

  it('finds a configured key even when it is spelled like a prototype member', () => {
    expect(ownValue(JSON.parse('{"constructor": 2, "__proto__": 3}') as Record<string, number>, 'constructor')).toBe(2);
    expect(ownValue(JSON.parse('{"__proto__": 3}') as Record<string, number>, '__proto__')).toBe(3);
  });
});
