/** Edge cases of reading Ollama chunks loosely: odd fields, old servers, chunks after `done`. */
import { describe, expect, it } from 'vitest';
import { OllamaChunkTranslator } from '../../../providers/ollama/ollama-chunk-translator.js';

describe('OllamaChunkTranslator', () => {
  it('ignores chunks and fields of the wrong shape', () => {
    const translator = new OllamaChunkTranslator();
    expect(translator.translate(null)).toEqual([]);
    expect(translator.translate('text')).toEqual([]);
    expect(translator.translate({ message: { content: 42, thinking: '', tool_calls: [{ function: { arguments: {} } }, 'x'] } })).toEqual(
      [],
    );
  });

  it('treats missing arguments as an empty object', () => {
    const translator = new OllamaChunkTranslator();
    const events = translator.translate({ message: { content: '', tool_calls: [{ id: 'c1', function: { name: 'ping' } }] } });
    expect(events).toEqual([
      { type: 'tool-call-start', index: 0, id: 'c1', name: 'ping' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{}' },
      { type: 'tool-call-end', index: 0, arguments: '{}' },
    ]);
  });

  it('finishes as stop without done_reason (older servers) and without counters', () => {
    const translator = new OllamaChunkTranslator();
    expect(translator.translate({ model: 'm', message: { role: 'assistant', content: 'end' }, done: true })).toEqual([
      { type: 'text-delta', delta: 'end' },
      { type: 'finish', reason: { unified: 'stop' }, usage: { raw: {} } },
    ]);
    expect(translator.finished).toBe(true);
  });

  it('numbers tool calls across chunks and ignores anything after done', () => {
    const translator = new OllamaChunkTranslator();
    const call = (name: string) => ({ message: { content: '', tool_calls: [{ function: { index: 0, name, arguments: {} } }] } });
    const indexes = [...translator.translate(call('a')), ...translator.translate(call('b'))]
      .filter((event) => event.type === 'tool-call-start')
      .map((event) => event.type === 'tool-call-start' && event.index);
    expect(indexes).toEqual([0, 1]);
    expect(translator.translate({ done: true, done_reason: 'stop' })[0]).toMatchObject({
      type: 'finish',
      reason: { unified: 'tool-calls' },
    });
    expect(translator.translate({ message: { content: 'late' }, done: true })).toEqual([]);
  });
});

describe('OllamaChunkTranslator log probabilities', () => {
  /** A token as Ollama sends it (api/types.go Logprob; `top_logprobs` omitted when none were asked for). */
  const token = (text: string, logprob = -0.5) => ({ token: text, logprob, bytes: [...Buffer.from(text, 'utf8')] });
  const neutral = (text: string, logprob = -0.5) => ({ ...token(text, logprob), topLogprobs: [] });
  const done = { message: { role: 'assistant', content: '' }, done: true, done_reason: 'stop' };

  it('pairs tokens the server held back with the text it then released, and drops those of markup', () => {
    const translator = new OllamaChunkTranslator();
    // A tool parser holds '<' back as a possible tag; '<|channel|>' is markup its parser never releases.
    const events = [
      ...translator.translate({ message: { content: '' }, logprobs: [token('<|channel|>')] }),
      ...translator.translate({ message: { content: '' }, logprobs: [token('<')] }),
      ...translator.translate({ message: { content: '<b' }, logprobs: [token('b')] }),
      ...translator.translate(done),
    ];
    expect(events).toEqual([
      { type: 'text-delta', delta: '<b', logprobs: [neutral('<'), neutral('b')] },
      { type: 'finish', reason: { unified: 'stop', raw: 'stop' }, usage: { raw: {} } },
    ]);
  });

  it('returns no tokens for text the server rewrote, and says so at the end', () => {
    const translator = new OllamaChunkTranslator();
    const events = [
      ...translator.translate({ message: { content: '' }, logprobs: [token('\n\n ')] }),
      ...translator.translate({ message: { content: 'Hi' }, logprobs: [token(' Hi')] }),
      ...translator.translate(done),
    ];
    expect(events[0]).toEqual({ type: 'text-delta', delta: 'Hi' });
    expect(events[1]).toMatchObject({ type: 'finish', diagnostics: { warnings: [{ code: 'logprobs-partial' }] } });
  });

  it('finds the content among a whole reply’s tokens, after thinking', () => {
    const translator = new OllamaChunkTranslator();
    const events = translator.translate({
      message: { role: 'assistant', content: 'Yes.', thinking: 'Ok' },
      logprobs: [token('Ok'), token('</think>'), token('\n\n'), token('Yes'), token('.')],
      done: true,
    });
    expect(events.slice(0, 2)).toEqual([
      { type: 'reasoning-delta', delta: 'Ok' },
      { type: 'text-delta', delta: 'Yes.', logprobs: [neutral('Yes'), neutral('.')] },
    ]);
    expect(events[2]).not.toHaveProperty('diagnostics');
  });
});
