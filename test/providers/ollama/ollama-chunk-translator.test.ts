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
