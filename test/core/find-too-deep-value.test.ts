/** The depth finder behind the body parser's nesting limit: same answer as a recursive walk, and no recursion of its own. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { shareToolList } from '../../src/core/shared-tool-list.js';
import { findTooDeepValue, formatJsonPath } from '../../src/core/find-too-deep-value.js';

/** Containers count; the root container is level 1, a scalar root level 0. */
function recursiveDepth(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  return 1 + Math.max(0, ...Object.values(value).map(recursiveDepth));
}

function nestedText(levels: number): string {
  return `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
}

describe('findTooDeepValue', () => {
  it('agrees with a recursive walk on any JSON value and limit', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 8 }), fc.integer({ min: 1, max: 10 }), (value, limit) => {
        const found = findTooDeepValue(value, limit);
        expect(found !== undefined).toBe(recursiveDepth(value) > limit);
        // The path it names leads to a container exactly one level past the limit.
        if (found) {
          const target = found.reduce<unknown>((node, key) => (node as Record<string | number, unknown>)[key], value);
          expect(typeof target === 'object' && target !== null).toBe(true);
          expect(found.length).toBe(limit);
        }
      }),
    );
  });

  it('walks 100,000 levels without overflowing the stack', () => {
    const value = JSON.parse(nestedText(100_000)) as unknown;
    expect(findTooDeepValue(value, 128)).toEqual(Array.from({ length: 128 }, () => 'a'));
    // The deepest limit still walked recursively, and the shallowest walked with a stack of its own.
    expect(findTooDeepValue(value, 2048)).toHaveLength(2048);
    expect(findTooDeepValue(value, 2049)).toHaveLength(2049);
    expect(findTooDeepValue(value, 100_000)).toBeUndefined();
  });

  it('names array indices and keys like OpenAI params', () => {
    const value = JSON.parse('{"tools":[{"function":{"parameters":{"properties":{}}}}]}') as unknown;
    const path = findTooDeepValue(value, 5);
    expect(path).toEqual(['tools', 0, 'function', 'parameters', 'properties']);
    expect(formatJsonPath(path ?? [])).toBe('tools[0].function.parameters.properties');
  });

  it('does not enter shared tool lists (, checked when they were learnt)', () => {
    const list = shareToolList(JSON.parse(`[${nestedText(10)}]`) as unknown[]);
    expect(findTooDeepValue({ tools: list }, 3)).toBeUndefined();
    expect(findTooDeepValue({ tools: JSON.parse(`[${nestedText(10)}]`) as unknown }, 3)).toEqual(['tools', 0, 'a']);
  });
});
