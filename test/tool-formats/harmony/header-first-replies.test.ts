/** Harmony replies that begin inside the header the template already opened (`<|start|>assistant`). */
import { describe, expect, it } from 'vitest';
import type { ParsedEvent } from '../../../src/core/index.js';
import { createToolFormatRegistry } from '../../../tool-formats/index.js';
import { expectChunkingInvariant, testChunkingInvariance } from '../helpers/chunking-invariance.js';
import { getTime, getWeather, standardTools } from '../helpers/tools.js';

const registry = createToolFormatRegistry();
const parse = (text: string, family = 'harmony') => expectChunkingInvariant(() => registry.get(family)!.createParser(standardTools), text);
const call = (name: string, callArguments: unknown): ParsedEvent => ({ type: 'tool-call', name, arguments: JSON.stringify(callArguments) });
const weather = call('get_weather', { city: 'Oslo' });

describe('harmony: a reply that begins inside the header', () => {
  it.each([
    ' to=functions.get_weather<|channel|>commentary <|constrain|>json<|message|>{"city": "Oslo"}<|call|>',
    ' to=functions.get_weather<|channel|>commentary json<|message|>{"city": "Oslo"}<|call|>',
    ' to=functions.get_weather json<|message|>{"city": "Oslo"}',
    'to=functions.get_weather <|constrain|>json<|message|>{"city": "Oslo"}<|call|>',
    'commentary to=functions.get_weather <|constrain|>json<|message|>{"city": "Oslo"}<|call|>',
    'commentary to=functions.get_weather json<|message|>{"city": "Oslo"}<|call|>',
    'analysis to=functions.get_weather<|message|>{"city": "Oslo"}<|call|>',
    '<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"city": "Oslo"}<|call|>',
  ])('reads the call in %j', (reply) => {
    expect(parse(reply)).toEqual([weather]);
  });

  it('reads a reply beginning with the analysis channel name as reasoning, then the answer or a call', () => {
    expect(parse('analysis<|message|>The user wants Oslo.<|end|><|start|>assistant<|channel|>final<|message|>Sunny.<|return|>')).toEqual([
      { type: 'reasoning', text: 'The user wants Oslo.' },
      { type: 'text', text: 'Sunny.' },
    ]);
    expect(
      parse(
        'analysis<|message|>Need the weather.<|end|><|start|>assistant to=functions.get_weather<|channel|>commentary json<|message|>{"city": "Oslo"}<|call|>',
      ),
    ).toEqual([{ type: 'reasoning', text: 'Need the weather.' }, weather]);
  });

  it('reads a reply beginning with the final or commentary channel name as content', () => {
    expect(parse('final<|message|>Sunny in Oslo.<|return|>')).toEqual([{ type: 'text', text: 'Sunny in Oslo.' }]);
    expect(
      parse(
        'commentary<|message|>Checking.<|end|><|start|>assistant<|channel|>commentary to=functions.get_weather json<|message|>{"city": "Oslo"}<|call|>',
      ),
    ).toEqual([{ type: 'text', text: 'Checking.' }, weather]);
  });

  it('rejects an unknown recipient and reports a cut-off call, as anywhere else', () => {
    expect(parse(' to=functions.delete_all<|channel|>commentary json<|message|>{}<|call|>')).toMatchObject([
      { type: 'tool-call-rejected', code: 'unavailable_tool' },
    ]);
    expect(parse(' to=functions.get_weather<|channel|>commentary json<|message|>{"city": "Os')).toMatchObject([
      { type: 'tool-call-unparsed', format: 'harmony', reason: 'unclosed' },
    ]);
  });

  it('only at the very start, and only for harmony models', () => {
    const prose = 'Send it to=functions.get_weather later.';
    expect(parse(`Note: ${prose}`)).toEqual([{ type: 'text', text: `Note: ${prose}` }]);
    // Another family's parser only drops the framing token, as it does anywhere in a reply.
    expect(parse('analysis<|message|>x', 'hermes')).toEqual([{ type: 'text', text: 'analysisx' }]);
    expect(parse('analysis of the data')).toEqual([{ type: 'text', text: 'analysis of the data' }]);
    expect(parse(' tomorrow')).toEqual([{ type: 'text', text: ' tomorrow' }]);
  });
});

testChunkingInvariance({
  name: 'harmony header-first',
  createParser: () => registry.get('harmony')!.createParser([getTime, getWeather]),
  samples: [
    ' to=functions.get_time<|channel|>commentary <|constrain|>json<|message|>{}<|call|>',
    'analysis<|message|>Think.<|end|><|start|>assistant<|channel|>final<|message|>Done.',
    'commentary to=functions.get_weather json<|message|>{"city": "<|call|>"}<|call|>',
    'final<|message|>Plain.',
  ],
  fragments: [
    ' to=',
    'to=',
    'functions.get_time',
    '<|channel|>commentary',
    ' <|constrain|>json',
    '<|message|>',
    '{}',
    '<|call|>',
    'analysis',
    'final',
    'commentary',
    '<|end|>',
    '<|start|>assistant',
  ],
  numRuns: 300,
});
