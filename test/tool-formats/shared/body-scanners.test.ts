import { describe, expect, it } from 'vitest';
import type { BodyScanner, BodyScanStep } from '../../../tool-formats/shared/body-scanner.js';
import { MarkerMatcher } from '../../../tool-formats/shared/marker-matcher.js';
import { createTaggedBodyLayout, type Terminator } from '../../../tool-formats/shared/tagged-body-layout.js';
import { TaggedBodyScanner } from '../../../tool-formats/shared/tagged-body-scanner.js';
import { ValuesBodyScanner } from '../../../tool-formats/shared/values-body-scanner.js';

const terminators = (end: string[], restart: string[] = []) =>
  new MarkerMatcher<Terminator>([
    ...end.map((marker) => ({ marker, value: 'end' as const })),
    ...restart.map((marker) => ({ marker, value: 'restart' as const })),
  ]);

/**
 * Feeds chunks like the parser does (held text comes back in front of the next chunk); returns body and
 * closer. `offerWhole`: the input is offered to `takeLeading` first, as the parser does.
 */
function run(
  scanner: BodyScanner,
  chunks: string[],
  offerWhole = false,
): { body: string; closer: string; rest: string } | { open: string } {
  let body = '';
  let pending = '';
  for (let index = 0; index < chunks.length; index++) {
    const chunk = chunks[index] as string;
    const input = pending + chunk;
    const taken = offerWhole ? (scanner.takeLeading?.(input) ?? -1) : -1;
    if (taken >= 0) {
      body += input.slice(0, taken);
      pending = input.slice(taken);
      continue;
    }
    const step: BodyScanStep = scanner.scan(input, 0);
    if (step.type === 'closed')
      return {
        body: body + input.slice(0, step.bodyEnd),
        closer: input.slice(step.bodyEnd, step.end),
        rest: input.slice(step.end) + chunks.slice(index + 1).join(''),
      };
    if (step.type === 'declined') throw new Error('These scanners never decline');
    body += input.slice(0, step.keepFrom);
    pending = input.slice(step.keepFrom);
  }
  return { open: body + pending };
}

const everySplit = (text: string) => [
  [text],
  [...text],
  ...Array.from({ length: text.length - 1 }, (_, cut) => [text.slice(0, cut + 1), text.slice(cut + 1)]),
];

describe('TaggedBodyScanner', () => {
  const tagged = () => new TaggedBodyScanner(terminators(['</tool_call>'], ['<tool_call>']));

  it('ends at the end marker, but not at one inside a JSON string, for every split', () => {
    const text = '\n{"name": "a", "arguments": {"s": "</tool_call> and \\" </tool_call>"}}\n</tool_call> after';
    for (const chunks of everySplit(text)) {
      expect(run(tagged(), chunks)).toEqual({
        body: '\n{"name": "a", "arguments": {"s": "</tool_call> and \\" </tool_call>"}}\n',
        closer: '</tool_call>',
        rest: ' after',
      });
    }
  });

  it('treats single-quoted strings as strings, ending them at a newline', () => {
    expect(run(tagged(), ["{'a': '</tool_call>'}</tool_call>"])).toMatchObject({ body: "{'a': '</tool_call>'}" });
    expect(run(tagged(), ["{it's\n}</tool_call>"])).toMatchObject({ body: "{it's\n}" });
  });

  it('closes implicitly at a repeated start marker after a complete JSON value', () => {
    expect(run(tagged(), ['{"name": "a"}\n<tool_call>{"name": "b"}'])).toEqual({
      body: '{"name": "a"}\n',
      closer: '',
      rest: '<tool_call>{"name": "b"}',
    });
  });

  it('skips doubled open tags and stray ">" before the body', () => {
    for (const chunks of everySplit('><tool_call> {"a": "</tool_call>"}</tool_call>')) {
      expect(run(tagged(), chunks)).toMatchObject({ body: '><tool_call> {"a": "</tool_call>"}', closer: '</tool_call>' });
    }
  });

  it('searches raw bodies for the first end marker', () => {
    expect(run(tagged(), ['\n<function=a>\n<parameter=x>\n"1\n</parameter>\n</function>\n</tool_call>'])).toMatchObject({
      closer: '</tool_call>',
      rest: '',
    });
    expect(run(tagged(), ['get weather for paris </tool_call>x'])).toEqual({
      body: 'get weather for paris ',
      closer: '</tool_call>',
      rest: 'x',
    });
  });

  it('stays open when the reply is cut off', () => {
    expect(run(tagged(), ['{"name": "search_web", "argu'])).toEqual({ open: '{"name": "search_web", "argu' });
  });

  describe('inside a raw value whose close is taken a piece at a time', () => {
    const endMarkers = [{ marker: '</tool_call>', value: 'end' as const }];
    const layout = createTaggedBodyLayout(endMarkers, [{ open: '<value>', close: '</value>' }], []);
    const valued = () => new TaggedBodyScanner(new MarkerMatcher<Terminator>(endMarkers), layout);
    // Starts of the close that turn out to be value text (`</val</value>`, `</v`), end markers inside the value.
    const text = 'name <value>a </val </tool_call></value> </v x <value></valu</value! </tool_call></value></value>b</tool_call>after';
    const expected = {
      body: 'name <value>a </val </tool_call></value> </v x <value></valu</value! </tool_call></value></value>b',
      closer: '</tool_call>',
      rest: 'after',
    };

    it('reads the same body for every split, whether chunks are taken whole or scanned', () => {
      for (const chunks of everySplit(text)) {
        expect(run(valued(), chunks)).toEqual(expected);
        expect(run(valued(), chunks, true)).toEqual(expected);
      }
    });

    it('reads the same body in chunks of every small size', () => {
      for (let size = 1; size <= 9; size++) {
        const chunks = Array.from({ length: Math.ceil(text.length / size) }, (_, index) => text.slice(index * size, index * size + size));
        expect(run(valued(), chunks, true)).toEqual(expected);
      }
    });
  });
});

describe('ValuesBodyScanner', () => {
  const values = () => new ValuesBodyScanner(terminators(['<|eom_id|>']), ';');

  it('ends right after the last value, leaving what follows', () => {
    for (const chunks of everySplit('{"name": "a"}; {"name": "b"}\n\nDone.')) {
      expect(run(values(), chunks)).toEqual({ body: '{"name": "a"}; {"name": "b"}', closer: '', rest: '\n\nDone.' });
    }
  });

  it('swallows an end marker right after the values', () => {
    for (const chunks of everySplit('{"a": "<|eom_id|>"} <|eom_id|>x')) {
      expect(run(values(), chunks)).toEqual({ body: '{"a": "<|eom_id|>"} ', closer: '<|eom_id|>', rest: 'x' });
    }
  });

  it('does not take a separator followed by prose', () => {
    expect(run(values(), ['{"a": 1}; and more'])).toEqual({ body: '{"a": 1}', closer: '', rest: '; and more' });
  });

  it('runs raw bodies to the end marker or the end of the reply', () => {
    expect(run(values(), ['print(1)<|eom_id|>'])).toEqual({ body: 'print(1)', closer: '<|eom_id|>', rest: '' });
    expect(run(values(), ['print(1)'])).toEqual({ open: 'print(1)' });
  });
});
