import { describe, expect, it } from 'vitest';
import { noEvents, ParsedEventBuffer } from '../../../tool-formats/shared/parsed-event-buffer.js';

describe('parsed event buffer', () => {
  it('drains nothing as the one frozen empty array, which a caller cannot add to', () => {
    const buffer = new ParsedEventBuffer();
    const drained = buffer.drain();
    expect(drained).toBe(noEvents);
    expect(drained).toEqual([]);
    expect(() => drained.push({ type: 'text', text: 'x' })).toThrow(TypeError);
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
});
