/** The tagged-body options added for XML-ish families (value spans, nested values, trailing end markers), on the scanner alone. */
import { describe, expect, it } from 'vitest';
import type { BodyScanStep } from '../../../tool-formats/shared/body-scanner.js';
import { MarkerMatcher } from '../../../tool-formats/shared/marker-matcher.js';
import { createTaggedBodyLayout, type Terminator } from '../../../tool-formats/shared/tagged-body-layout.js';
import { TaggedBodyScanner } from '../../../tool-formats/shared/tagged-body-scanner.js';

type Outcome = { body: string; closer: string; rest: string } | { open: string };

const entries = (end: string[], restart: string[]) => [
  ...end.map((marker) => ({ marker, value: 'end' as Terminator })),
  ...restart.map((marker) => ({ marker, value: 'restart' as Terminator })),
];

function scanner(
  end: string,
  restart: string,
  options: { spans?: { open: string; close: string; nested?: string }[]; trailing?: string[] },
): () => TaggedBodyScanner {
  const terminators = entries([end], [restart]);
  const layout = createTaggedBodyLayout(terminators, options.spans ?? [], options.trailing ?? []);
  return () => new TaggedBodyScanner(new MarkerMatcher(terminators), layout);
}

/** Feeds chunks like the parser does (held text comes back in front of the next chunk). */
function run(create: () => TaggedBodyScanner, chunks: string[]): Outcome {
  const body = create();
  let collected = '';
  let pending = '';
  for (let index = 0; index < chunks.length; index++) {
    const input = pending + chunks[index];
    const step: BodyScanStep = body.scan(input, 0);
    if (step.type === 'closed') {
      return {
        body: collected + input.slice(0, step.bodyEnd),
        closer: input.slice(step.bodyEnd, step.end),
        rest: input.slice(step.end) + chunks.slice(index + 1).join(''),
      };
    }
    if (step.type === 'declined') throw new Error('These scanners never decline');
    collected += input.slice(0, step.keepFrom);
    pending = input.slice(step.keepFrom);
  }
  return { open: collected + pending };
}

/** The whole text, one character per chunk, and every split in two. */
function expectEverySplit(create: () => TaggedBodyScanner, text: string, expected: Outcome): void {
  const splits = [[text], [...text], ...Array.from({ length: text.length - 1 }, (_, cut) => [text.slice(0, cut + 1), text.slice(cut + 1)])];
  for (const chunks of splits) expect(run(create, chunks), JSON.stringify(chunks)).toEqual(expected);
}

describe('tagged bodies with value spans', () => {
  const toolCall = scanner('</tool_call>', '<tool_call>', {
    spans: [
      { open: '<parameter=', close: '</parameter>', nested: '\n<parameter=' },
      { open: '<arg_value>', close: '</arg_value>' },
    ],
  });

  it('ignores end and start markers inside a value', () => {
    const body = '\n<function=f>\n<parameter=code>\nx = "</tool_call><tool_call>"\n</parameter>\n</function>\n';
    expectEverySplit(toolCall, `${body}</tool_call>after`, { body, closer: '</tool_call>', rest: 'after' });
    const glm = 'f<arg_key>code</arg_key><arg_value></tool_call></arg_value>';
    expectEverySplit(toolCall, `${glm}</tool_call>`, { body: glm, closer: '</tool_call>', rest: '' });
  });

  it('lets a value quote whole parameter blocks on their own lines', () => {
    const body = '<function=f><parameter=doc>\n<parameter=x>\n1\n</parameter>\n</tool_call>\n</parameter></function>';
    expectEverySplit(toolCall, `${body}</tool_call>.`, { body, closer: '</tool_call>', rest: '.' });
  });

  it('still closes at markers outside values, and stays open inside an unclosed one', () => {
    expectEverySplit(toolCall, '<function=f></function></tool_call>x', {
      body: '<function=f></function>',
      closer: '</tool_call>',
      rest: 'x',
    });
    expectEverySplit(toolCall, '<function=f></function>\n<tool_call>y', {
      body: '<function=f></function>\n',
      closer: '',
      rest: '<tool_call>y',
    });
    expect(run(toolCall, ['<function=f><parameter=a>\n</tool_call> cut'])).toEqual({ open: '<function=f><parameter=a>\n</tool_call> cut' });
  });

  it('leaves JSON bodies to the JSON scan', () => {
    expectEverySplit(toolCall, '{"a": "<parameter="}</tool_call>', { body: '{"a": "<parameter="}', closer: '</tool_call>', rest: '' });
  });
});

describe('tagged bodies with a trailing end marker', () => {
  const bareFunction = scanner('</function>', '<function=', {
    spans: [{ open: '<parameter=', close: '</parameter>' }],
    trailing: ['</tool_call>'],
  });

  it('takes the trailing marker along after a little whitespace', () => {
    expectEverySplit(bareFunction, 'f>\n<parameter=a>\n1\n</parameter>\n</function>\n</tool_call>\nDone', {
      body: 'f>\n<parameter=a>\n1\n</parameter>\n',
      closer: '</function>\n</tool_call>',
      rest: '\nDone',
    });
  });

  it('closes at the end marker alone when something else follows, or too much whitespace', () => {
    expectEverySplit(bareFunction, 'f></function>\n<function=g>', { body: 'f>', closer: '</function>', rest: '\n<function=g>' });
    const far = `f></function>${' '.repeat(17)}</tool_call>`;
    expectEverySplit(bareFunction, far, { body: 'f>', closer: '</function>', rest: `${' '.repeat(17)}</tool_call>` });
  });

  it('holds the end marker back until it knows', () => {
    expect(run(bareFunction, ['f></function>\n'])).toEqual({ open: 'f></function>\n' });
    expect(run(bareFunction, ['f></function>\n</tool'])).toEqual({ open: 'f></function>\n</tool' });
  });
});
