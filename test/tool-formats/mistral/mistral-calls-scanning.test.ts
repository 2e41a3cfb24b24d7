// The Mistral body scanner factory: its markers are built per envelope and kept by the factory, not by the module.
import { describe, expect, it } from 'vitest';
import type { Envelope } from '../../../tool-formats/shared/envelope.js';
import { mistralCallsScanning } from '../../../tool-formats/mistral/mistral-calls-scanner.js';

const envelope = (end: string): Envelope => ({
  family: 'mistral',
  start: ['[TOOL_CALLS]'],
  end: [end],
  kind: 'explicit',
  body: { type: 'custom', createScanner: () => ({ scan: () => ({ type: 'more', keepFrom: 0 }) }) },
  grammars: [],
});

describe('mistralCallsScanning', () => {
  it("gives each envelope its own markers, also after another envelope's scanner was built", () => {
    const create = mistralCallsScanning();
    const first = envelope('</s>');
    const second = envelope('<END>');
    for (const [target, end] of [
      [first, '</s>'],
      [second, '<END>'],
      [first, '</s>'],
    ] as const) {
      const body = `unreadable text ${end} after`;
      expect(create(target).scan(body, 0)).toEqual({ type: 'closed', bodyEnd: body.indexOf(end), end: body.indexOf(end) + end.length });
    }
  });
});
