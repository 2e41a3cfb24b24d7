import { describe, expect, expectTypeOf, it } from 'vitest';
import type { ParsedEvent } from '../../../src/core/index.js';
import { noEvents, ParsedEventBuffer } from '../../../tool-formats/shared/parsed-event-buffer.js';

describe('parsed event buffer', () => {
  it('drains nothing as the one shared empty array, read-only by type and not frozen (one array map for callers)', () => {
    const buffer = new ParsedEventBuffer();
    const drained = buffer.drain();
    expect(drained).toBe(noEvents);
    expect(drained).toEqual([]);
    expectTypeOf(drained).toEqualTypeOf<readonly ParsedEvent[]>();
    expect(Object.isFrozen(drained)).toBe(false);
    expect(buffer.drain()).toEqual([]);
  });

  it('hands out a new array once something was parsed, left alone by later events', () => {
    const buffer = new ParsedEventBuffer();
    buffer.text('a');
    buffer.text('b');
    const first = buffer.drain();
    buffer.text('c');
    const second = buffer.drain();
    expect(first).toEqual([{ type: 'text', text: 'ab' }]);
    expect(second).toEqual([{ type: 'text', text: 'c' }]);
    expect(noEvents).toEqual([]);
  });

  it('keeps several events of one push in order, merging only neighbours of one kind', () => {
    const buffer = new ParsedEventBuffer();
    buffer.reasoning('r1');
    buffer.reasoning('r2');
    buffer.text('t1');
    buffer.add({ type: 'tool-call-unparsed', format: 'hermes', text: '<tool_call>', reason: 'unclosed' });
    buffer.add({ type: 'text', text: 't2' });
    buffer.text('t3');
    expect(buffer.drain()).toEqual([
      { type: 'reasoning', text: 'r1r2' },
      { type: 'text', text: 't1' },
      { type: 'tool-call-unparsed', format: 'hermes', text: '<tool_call>', reason: 'unclosed' },
      { type: 'text', text: 't2t3' },
    ]);
    buffer.text('after');
    expect(buffer.drain()).toEqual([{ type: 'text', text: 'after' }]);
  });
});
