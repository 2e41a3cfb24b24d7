/** Harmony replies whose special tokens a server removed: channels and calls read back from what remains. */
import { describe, expect, it } from 'vitest';
import { createToolFormatRegistry } from '../../../tool-formats/index.js';
import { testChunkingInvariance } from '../helpers/chunking-invariance.js';
import { call, parseStripped, strippedWarning, testProseUntouched } from '../helpers/stripped-residue.js';
import { getTime, getWeather, standardTools } from '../helpers/tools.js';

const harmony = createToolFormatRegistry().get('harmony')!;
const parse = (text: string) => parseStripped('harmony', standardTools, text);
const paris = call('get_weather', { city: 'Paris' });

describe('harmony: a reply with its special tokens stripped', () => {
  it('reads the reasoning and the call of the stripped reply vLLM returns by default', () => {
    expect(parse('analysisNeed the weather.assistantcommentary to=functions.get_weather json{"city": "Paris"}')).toEqual([
      { type: 'reasoning', text: 'Need the weather.' },
      paris,
      strippedWarning,
    ]);
  });

  it.each([
    ['<|constrain|>json stripped', 'analysisX.assistantcommentary to=functions.get_weather json{"city": "Paris"}'],
    ['no content type', 'analysisX.assistantcommentary to=functions.get_weather{"city": "Paris"}'],
    ['the content type glued to the name', 'analysisX.assistantcommentary to=functions.get_weatherjson{"city": "Paris"}'],
    ['on the analysis channel', 'analysisX.assistantanalysis to=functions.get_weather json{"city": "Paris"}'],
    ['in the role header', 'analysisX.assistant to=functions.get_weathercommentary json{"city": "Paris"}'],
    ['with the <|call|> stop token kept', 'analysisX.assistantcommentary to=functions.get_weather json{"city": "Paris"}<|call|>'],
  ])('reads the call with %s', (_name, reply) => {
    expect(parse(reply)).toEqual([{ type: 'reasoning', text: 'X.' }, paris, strippedWarning]);
  });

  it.each([
    'commentary to=functions.get_weather json{"city": "Paris"}',
    ' to=functions.get_weathercommentary json{"city": "Paris"}',
    'to=functions.get_weather json{"city": "Paris"}',
    'analysis to=functions.get_weather json{"city": "Paris"}',
  ])('reads a reply that begins with the call, %j', (reply) => {
    expect(parse(reply)).toEqual([paris, strippedWarning]);
  });

  it('reads analysis then final as reasoning then content', () => {
    expect(parse('analysisThe user greets me.assistantfinalHello! How can I help?')).toEqual([
      { type: 'reasoning', text: 'The user greets me.' },
      { type: 'text', text: 'Hello! How can I help?' },
      strippedWarning,
    ]);
    expect(parse('finalSunny in Paris.')).toEqual([{ type: 'text', text: 'Sunny in Paris.' }, strippedWarning]);
  });

  it('reads several analysis messages, a commentary preamble and a call', () => {
    expect(
      parse('analysisFirst.assistantanalysisSecond.assistantcommentaryLet me look.assistantcommentary to=functions.get_time json{}'),
    ).toEqual([
      { type: 'reasoning', text: 'First.Second.' },
      { type: 'text', text: 'Let me look.' },
      call('get_time', {}),
      strippedWarning,
    ]);
  });

  it('keeps the tokens a JSON string holds out of the markup', () => {
    expect(parse('analysisX.assistantcommentary to=functions.get_weather json{"city": "assistantfinal Paris"}')).toEqual([
      { type: 'reasoning', text: 'X.' },
      call('get_weather', { city: 'assistantfinal Paris' }),
      strippedWarning,
    ]);
  });

  it('rejects a call to a tool not offered, keeping it out of the content, and still reports the stripping', () => {
    const events = parseStripped('harmony', [getTime], 'analysisX.assistantcommentary to=functions.get_weather json{"city": "Paris"}');
    expect(events).toEqual([
      { type: 'reasoning', text: 'X.' },
      expect.objectContaining({ type: 'tool-call-rejected', code: 'unavailable_tool' }),
      strippedWarning,
    ]);
  });

  it('names the fix in the warning', () => {
    const warning = parse('finalHi.').at(-1);
    expect(warning).toMatchObject({ code: 'special-tokens-stripped', message: expect.stringContaining('--special') });
    expect(warning).toMatchObject({ message: expect.stringContaining('`server` setting') });
  });

  it('leaves replies with their tokens, and replies of other families, as they were', () => {
    expect(parse('<|channel|>analysis<|message|>X.<|end|><|start|>assistant<|channel|>final<|message|>Hi.<|return|>')).toEqual([
      { type: 'reasoning', text: 'X.' },
      { type: 'text', text: 'Hi.' },
    ]);
    expect(parse('finally, the answer: analysis shows the final commentary.')).toEqual([
      { type: 'text', text: 'finally, the answer: analysis shows the final commentary.' },
    ]);
    // Another family's parser never reads Harmony's residue.
    const hermes = createToolFormatRegistry().get('hermes')!.createParser([getWeather]);
    const text = 'analysisX.assistantcommentary to=functions.get_weather json{"city": "Paris"}';
    expect([...hermes.push(text), ...hermes.finish()]).toEqual([{ type: 'text', text }]);
  });

  testProseUntouched('harmony', standardTools, [
    'analysis',
    'analysis:',
    'final',
    'finally',
    'final.',
    'commentary',
    'assistant',
    'assistantfinal',
    'assistantcommentary',
    'get_weather',
    'functions.get_weather',
    '{"city": "Paris"}',
  ]);
});

testChunkingInvariance({
  name: 'harmony (stripped residue)',
  createParser: () => harmony.createParser(standardTools),
  samples: [
    'analysisNeed the weather.assistantcommentary to=functions.get_weather json{"city": "Paris"}',
    'analysisThe user greets me.assistantfinalHello!',
    ' to=functions.get_weathercommentary json{"city": "Paris"}',
    'analysisA.assistantanalysisB.assistantcommentaryC.assistantcommentary to=functions.get_time json{}',
  ],
  fragments: [
    'analysis',
    'final',
    'commentary',
    'assistantfinal',
    'assistantanalysis',
    'assistantcommentary',
    'assistantcommentary to=functions.get_weather json',
    ' to=functions.get_time',
    'json{',
    '{"city": "Paris"}',
    '{"city": "assistantfinal"}',
    '<|channel|>',
    '<|message|>',
  ],
});
