// End markers written inside a call's values (JSON strings, raw parameter values) are value text, in every chunking.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ParsedEvent, ToolDefinition } from '../../../src/core/index.js';
import { toolCallEnd as deepseekCallEnd } from '../../../tool-formats/shared/deepseek-tokens.js';
import { ifmCallClose, ifmSectionClose } from '../../../tool-formats/k2-horizon/ifm-call-grammar.js';
import { createToolFormatRegistry } from '../../../tool-formats/index.js';
import { callClose as kimiK3CallClose } from '../../../tool-formats/kimi-k3/kimi-k3-call-grammar.js';
import { closeTag as kimiK3CloseTag } from '../../../tool-formats/kimi-k3/kimi-k3-tokens.js';
import { toolCallEnd as kimiCallEnd } from '../../../tool-formats/kimi-k2/kimi-k2-tokens.js';
import { requestClose as plamoRequestClose, requestsClose as plamoRequestsClose } from '../../../tool-formats/plamo3/plamo3-tokens.js';
import { toolCallEnd as stepCallEnd, toolCallsEnd as stepSectionEnd } from '../../../tool-formats/step3/step3-tokens.js';
import { expectChunkingInvariant, parseChunks, parseWhole, splitAt } from '../helpers/chunking-invariance.js';

const registry = createToolFormatRegistry();
const tools: ToolDefinition[] = [
  {
    name: 'write_file',
    description: 'Write a file.',
    parameters: { type: 'object', properties: { path: { type: 'string' }, content: { type: 'string' } } },
  },
];
const writeFile = (content: string) => ({ name: 'write_file', arguments: JSON.stringify({ path: 'notes.md', content }) });
const expected = (content: string): ParsedEvent => ({ type: 'tool-call', ...writeFile(content) });

/** A reply with prose around one call of `family` whose content holds `content`, and the events it must give. */
function replyWith(family: string, content: string) {
  const text = `Writing it.\n${format(family).renderCall(writeFile(content))}\nDone.`;
  const factory = () => format(family).createParser(tools);
  return { text, factory, parse: () => expectChunkingInvariant(factory, text) };
}

function format(family: string) {
  const found = registry.get(family);
  if (found === undefined) throw new Error(`no family ${family}`);
  return found;
}

/** The call and the prose around it, whatever the chunking: nothing of the value leaks into the text. */
function expectCallKept(family: string, content: string): void {
  const reply = replyWith(family, content);
  const events = reply.parse();
  // Kimi-K2 adds its call id; the call itself must be exact.
  expect(events.filter((event) => event.type !== 'text')).toMatchObject([expected(content)]);
  const text = events.flatMap((event) => (event.type === 'text' ? [event.text] : [])).join('');
  expect(text).toContain('Writing it.');
  expect(text).toContain('Done.');
  expect(text).not.toContain('literally');
  // Random splits too (fast-check): the body scanner's state carries over chunk borders.
  fc.assert(
    fc.property(fc.array(fc.nat({ max: reply.text.length }), { maxLength: 10 }), (cuts) => {
      expect(parseChunks(reply.factory, splitAt(reply.text, cuts))).toEqual(parseWhole(reply.factory, reply.text));
    }),
    { numRuns: 100 },
  );
}

describe('llama3 and functionary <function=NAME>{json}</function>', () => {
  it('does not close at a </function> inside a JSON string of the arguments', () => {
    const factory = () => format('llama3').createParser(tools);
    const text = 'Here: <function=write_file>{"path": "a.html", "content": "</function> literally"}</function> done';
    const events = expectChunkingInvariant(factory, text);
    expect(events).toEqual([
      { type: 'text', text: 'Here: ' },
      { type: 'tool-call', name: 'write_file', arguments: JSON.stringify({ path: 'a.html', content: '</function> literally' }) },
      { type: 'text', text: ' done' },
    ]);
    expectCallKept('functionary-v31', '</function> literally');
  });

  it('still reads Qwen3-Coder parameters after the same <function=NAME> header', () => {
    expectCallKept('qwen3-coder', 'a </function> literally');
  });
});

describe('call sections: a call end inside a value is value text', () => {
  it.each([
    ['step3', `say ${stepCallEnd}${stepSectionEnd} literally`],
    ['minimax-m2', 'code with </invoke></minimax:tool_call> literally'],
    ['kimi-k3', `code with ${kimiK3CallClose}${kimiK3CloseTag('tools')} literally`],
    ['k2-horizon', `code with ${ifmCallClose}${ifmSectionClose} literally`],
    ['plamo3', `json holding ${plamoRequestClose}${plamoRequestsClose} literally`],
    // The section scanner of these raw sections is not JSON-aware yet: only the call's end is tested.
    ['deepseek', `json holding ${deepseekCallEnd} literally`],
    ['kimi-k2', `json holding ${kimiCallEnd} literally`],
  ])('%s', (family, content) => {
    expectCallKept(family, content);
  });
});
