import { describe, expect, it } from 'vitest';
import type { ParsedEvent, ParserOptions } from '../../../src/core/index.js';
import { createToolFormatRegistry } from '../../../tool-formats/index.js';
import { expectChunkingInvariant, testChunkingInvariance } from '../helpers/chunking-invariance.js';
import { getTime, getWeather, standardTools } from '../helpers/tools.js';

const registry = createToolFormatRegistry();
const parserFor = (family: string, options: ParserOptions) => () => registry.get(family)!.createParser(standardTools, options);
const opened = { startsInReasoning: true };
const parse = (family: string, text: string, options: ParserOptions = {}) => expectChunkingInvariant(parserFor(family, options), text);
const call = (name: string, callArguments: unknown): ParsedEvent => ({ type: 'tool-call', name, arguments: JSON.stringify(callArguments) });
const unclosed: ParsedEvent = { type: 'warning', code: 'reasoning-unclosed', message: expect.stringContaining('</think>') };
const orphan = (close: string): ParsedEvent => ({
  type: 'warning',
  code: 'reasoning-orphan-close',
  message: expect.stringContaining(close),
});
const hermesCall = '<tool_call>{"name": "get_time", "arguments": {}}</tool_call>';

describe('replies that begin inside reasoning the template opened', () => {
  it('streams the leading text as reasoning at once, holding back nothing but a possible close tag', () => {
    const parser = parserFor('hermes', opened)();
    expect(parser.push('The user wants')).toEqual([{ type: 'reasoning', text: 'The user wants' }]);
    expect(parser.push(' the time.</thi')).toEqual([{ type: 'reasoning', text: ' the time.' }]);
    expect(parser.push('nk>\n\nIt is noon.')).toEqual([{ type: 'text', text: '\n\nIt is noon.' }]);
    expect(parser.finish()).toEqual([]);
  });

  it('delivers the text as the reply too, calls included, when no close tag comes', () => {
    expect(parse('hermes', 'Paris is sunny.', opened)).toEqual([
      { type: 'reasoning', text: 'Paris is sunny.' },
      unclosed,
      { type: 'text', text: 'Paris is sunny.' },
    ]);
    expect(parse('hermes', `Checking.\n${hermesCall}`, opened)).toEqual([
      { type: 'reasoning', text: `Checking.\n${hermesCall}` },
      unclosed,
      { type: 'text', text: 'Checking.\n' },
      call('get_time', {}),
    ]);
  });

  it('keeps a block the model opened itself as reasoning when it is cut off (no replay)', () => {
    expect(parse('hermes', '<think>\nStill going', opened)).toEqual([{ type: 'reasoning', text: 'Still going' }]);
    expect(parse('hermes', '\n<think>\nStill going', opened)).toEqual([{ type: 'reasoning', text: 'Still going' }]);
  });

  it('says nothing about an empty reply', () => {
    expect(parse('hermes', '', opened)).toEqual([]);
  });

  it('leaves no trace of an empty block', () => {
    expect(parse('hermes', '</think>\n\nHello.', opened)).toEqual([{ type: 'text', text: '\n\nHello.' }]);
    expect(parse('hermes', '<think></think>Hello.', opened)).toEqual([{ type: 'text', text: 'Hello.' }]);
    expect(parse('hermes', '<think>\n\n</think>\n\nHello.')).toEqual([{ type: 'text', text: '\n\nHello.' }]);
    expect(parse('hermes', '<think> \n\t </think>Hello.')).toEqual([{ type: 'text', text: 'Hello.' }]);
    expect(parse('hermes', ' \n</think>Hello.', opened)).toEqual([{ type: 'text', text: 'Hello.' }]);
  });

  it('keeps whitespace inside a block that says something', () => {
    expect(parse('hermes', '\n  a \n</think>b', opened)).toEqual([
      { type: 'reasoning', text: '\n  a ' },
      { type: 'text', text: 'b' },
    ]);
  });

  it("uses the family's own reasoning tag", () => {
    expect(parse('mistral', 'Plan it.[/THINK]Done.', opened)).toEqual([
      { type: 'reasoning', text: 'Plan it.' },
      { type: 'text', text: 'Done.' },
    ]);
    expect(parse('gemma', 'Plan it.<channel|>Done.', opened)).toEqual([
      { type: 'reasoning', text: 'Plan it.' },
      { type: 'text', text: 'Done.' },
    ]);
    expect(parse('qwen3-coder', 'Plan.\n</think>\n\n<tool_call>\n<function=get_time>\n</function>\n</tool_call>', opened)).toEqual([
      { type: 'reasoning', text: 'Plan.' },
      { type: 'text', text: '\n\n' },
      call('get_time', {}),
    ]);
  });
});

describe('a reasoning close tag with no block open', () => {
  it('removes the tag, keeps what came before as content and warns once', () => {
    expect(parse('hermes', 'Thinking about it.\n</think>\n\nThe answer.</think>')).toEqual([
      { type: 'text', text: 'Thinking about it.\n' },
      orphan('</think>'),
      { type: 'text', text: '\n\nThe answer.' },
    ]);
  });

  it('reads a call right after it', () => {
    expect(parse('hermes', `Plan.</think>\n${hermesCall}`)).toEqual([
      { type: 'text', text: 'Plan.' },
      orphan('</think>'),
      { type: 'text', text: '\n' },
      call('get_time', {}),
    ]);
    expect(parse('llama3', 'Plan.</think>{"name": "get_weather", "parameters": {"city": "Rome"}}')).toEqual([
      { type: 'text', text: 'Plan.' },
      orphan('</think>'),
      call('get_weather', { city: 'Rome' }),
    ]);
  });

  it('knows every family’s close tag, and leaves a close tag that is another marker alone', () => {
    expect(parse('hermes', 'a[/THINK]b')).toEqual([{ type: 'text', text: 'a' }, orphan('[/THINK]'), { type: 'text', text: 'b' }]);
    expect(parse('mistral', 'a</think>b')).toEqual([{ type: 'text', text: 'a' }, orphan('</think>'), { type: 'text', text: 'b' }]);
    expect(parse('hermes', '◁think▷Plan.◁/think▷Done. x◁/think▷y')).toEqual([
      { type: 'reasoning', text: 'Plan.' },
      { type: 'text', text: 'Done. x' },
      orphan('◁/think▷'),
      { type: 'text', text: 'y' },
    ]);
    // Harmony's `<|end|>` is a framing token: dropped without a warning.
    expect(parse('harmony', 'a<|end|>b')).toEqual([{ type: 'text', text: 'ab' }]);
  });

  it('streams the text before it without waiting', () => {
    const parser = parserFor('hermes', {})();
    expect(parser.push('Some text')).toEqual([{ type: 'text', text: 'Some text' }]);
    expect(parser.push(' </th')).toEqual([{ type: 'text', text: ' ' }]);
    expect(parser.push('ink>')).toEqual([orphan('</think>')]);
  });

  it('reads nothing with no tools offered, unless the template opened reasoning', () => {
    expect(registry.get('hermes')!.createParser([], {}).push('a</think>b')).toEqual([{ type: 'text', text: 'a</think>b' }]);
    const text = `Plan.</think>\n${hermesCall}`;
    expect(expectChunkingInvariant(() => registry.get('hermes')!.createParser([], opened), text)).toEqual([
      { type: 'reasoning', text: 'Plan.' },
      { type: 'text', text: `\n${hermesCall}` },
    ]);
  });
});

const fragments = [
  '</think>',
  '<think>',
  '[/THINK]',
  '[THINK]',
  '<channel|>',
  '\n\n',
  ' ',
  hermesCall,
  '<tool_call>{"name": "get_weather", "arguments": {"city": "Oslo"}}',
  'plain words',
  '{"name": "get_time", "arguments": {}}',
];
for (const family of ['hermes', 'qwen3-coder', 'mistral', 'kimi-k2', 'deepseek']) {
  for (const startsInReasoning of [true, false]) {
    testChunkingInvariance({
      name: `${family} ${startsInReasoning ? 'opened by the template' : 'not opened'}`,
      createParser: () => registry.get(family)!.createParser([getTime, getWeather], { startsInReasoning }),
      samples: [`Plan.\n</think>\n\n${hermesCall}`, 'no close at all', '</think>', ' \n </think>x', `a</think>b</think>c`],
      fragments,
      numRuns: 150,
    });
  }
}
