/** The scripted models' token lists and the servers' decoding rules the fake servers rely on. */
import { describe, expect, it } from 'vitest';
import { generate, llamaCppPieces, tokenize, vllmDeltas } from './scripted-generation.js';
import { scriptedModel } from './scripted-models.js';

const text = (deltas: string[]) => deltas.join('');

describe('special-token lists', () => {
  it('are read from the real tokenizers: Harmony and Llama 3.1 markers are special, Qwen3 and DeepSeek V3 call tags are not', () => {
    expect(scriptedModel('harmony').tokens.special.has('<|channel|>')).toBe(true);
    expect(scriptedModel('llama3').tokens.special.has('<|python_tag|>')).toBe(true);
    expect(scriptedModel('llama3').tokens.special.has('<|eot_id|>')).toBe(true);
    expect(scriptedModel('hermes').tokens.special.has('<tool_call>')).toBe(false);
    expect(scriptedModel('hermes').tokens.special.has('<|im_end|>')).toBe(true);
    expect(scriptedModel('deepseek').tokens.special.has('<｜tool▁calls▁begin｜>')).toBe(false);
    expect(scriptedModel('deepseek').tokens.special.has('<｜end▁of▁sentence｜>')).toBe(true);
  });

  it('cut added tokens whole and ordinary text into short tokens', () => {
    const tokens = tokenize(scriptedModel('kimi-k2'), '<|tool_call_begin|>functions.x:0');
    expect(tokens[0]).toEqual({ text: '<|tool_call_begin|>', special: true, added: true });
    expect(tokens.slice(1).map((token) => token.text)).toEqual(['func', 'tion', 's.x:', '0']);
  });
});

describe("vLLM's detokenizers", () => {
  const skipping = { skipSpecialTokens: true, spacesBetweenSpecialTokens: true };
  const keeping = { skipSpecialTokens: false, spacesBetweenSpecialTokens: false };

  it('remove special tokens by default and never decode the stop token', () => {
    const model = scriptedModel('harmony');
    expect(text(vllmDeltas(model, generate(model, true), skipping))).toBe(
      'analysisNeed the weather.assistantcommentary to=functions.get_weather json{"city": "Paris"}',
    );
    expect(text(vllmDeltas(model, generate(model, true), keeping))).toBe(
      '<|channel|>analysis<|message|>Need the weather.<|end|><|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"city": "Paris"}',
    );
  });

  it('join added tokens with spaces in the slow detokenizer unless spaces_between_special_tokens is false', () => {
    const model = scriptedModel('kimi-k2');
    expect(text(vllmDeltas(model, generate(model, true), skipping))).toBe('functions.get_weather:0{"city": "Paris"}');
    expect(text(vllmDeltas(model, generate(model, true), { skipSpecialTokens: false, spacesBetweenSpecialTokens: true }))).toBe(
      '<|tool_calls_section_begin|> <|tool_call_begin|> functions.get_weather:0 <|tool_call_argument_begin|> {"city": "Paris"} <|tool_call_end|> <|tool_calls_section_end|>',
    );
    expect(text(vllmDeltas(model, generate(model, true), keeping))).toBe(
      '<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>{"city": "Paris"}<|tool_call_end|><|tool_calls_section_end|>',
    );
  });

  it('keep [TOOL_CALLS] but drop [ARGS] for Mistral tokenizers when skipping', () => {
    const model = scriptedModel('mistral');
    expect(text(vllmDeltas(model, generate(model, true), skipping))).toBe('[TOOL_CALLS]get_weather{"city": "Paris"}');
  });
});

describe("llama.cpp's pieces", () => {
  const model = scriptedModel('mistral');

  it('render special tokens only with --special or when preserved', () => {
    expect(llamaCppPieces(generate(model, true), { special: false }).join('')).toBe('get_weather{"city": "Paris"}');
    expect(llamaCppPieces(generate(model, true), { special: false, preserved: new Set(['[TOOL_CALLS]', '[ARGS]']) }).join('')).toBe(
      '[TOOL_CALLS]get_weather[ARGS]{"city": "Paris"}',
    );
  });

  it('send the end-of-generation token too when --special renders it', () => {
    expect(llamaCppPieces(generate(model, true), { special: true }).join('')).toBe('[TOOL_CALLS]get_weather[ARGS]{"city": "Paris"}</s>');
  });
});
