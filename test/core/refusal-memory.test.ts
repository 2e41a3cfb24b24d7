/** A refusal is remembered for its lifetime by the injected clock, then forgotten; the memory stays bounded. */
import { describe, expect, it } from 'vitest';
import { RefusalMemory, refusalMemories } from '../../src/core/refusal-memory.js';

describe('RefusalMemory', () => {
  it('remembers a refusal until its lifetime has passed, then forgets it and can learn it again', () => {
    let now = 1_000;
    const memory = new RefusalMemory({ forgetAfterMs: 600_000, now: () => now, capacity: 10 });
    expect(memory.has('local/qwen')).toBe(false);
    expect(memory.remember('local/qwen')).toBe(true);
    expect(memory.remember('local/qwen')).toBe(false);
    now += 599_999;
    expect(memory.has('local/qwen')).toBe(true);
    now += 1;
    expect(memory.has('local/qwen')).toBe(false);
    expect(memory.size).toBe(0);
    expect(memory.remember('local/qwen')).toBe(true);
  });

  it('with a lifetime of 0 remembers nothing past the moment', () => {
    const memory = new RefusalMemory({ forgetAfterMs: 0, now: () => 5, capacity: 10 });
    memory.remember('a');
    expect(memory.has('a')).toBe(false);
  });

  it('empties itself rather than grow past its capacity', () => {
    const memory = new RefusalMemory({ forgetAfterMs: 1_000, now: () => 0, capacity: 2 });
    memory.remember('a');
    memory.remember('b');
    memory.remember('c');
    expect([memory.has('a'), memory.has('b'), memory.has('c')]).toEqual([false, false, true]);
  });

  it('gives every memory one lifetime and one clock', () => {
    let now = 0;
    const make = refusalMemories({ forgetAfterMs: 100, now: () => now });
    const [first, second] = [make(5), make(5)];
    first.remember('x');
    second.remember('y');
    now = 100;
    expect([first.has('x'), second.has('y')]).toEqual([false, false]);
  });
});
