import { describe, expect, it } from 'vitest';
import type { Message } from '../../../src/core/index.js';
import { renderHistoryAsText } from '../../../tool-formats/shared/render-history-as-text.js';
import { jsonResultLines, taggedResults } from '../../../tool-formats/shared/tool-result-text.js';

const rendering = {
  renderCall: (call: { name: string; arguments: string }) => `CALL ${call.name} ${call.arguments}`,
  renderResults: taggedResults('<r>', '</r>'),
};

describe('renderHistoryAsText', () => {
  it('appends calls after the assistant text and keeps reasoning parts', () => {
    const messages: Message[] = [
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'A' },
          { type: 'reasoning', text: 'why', signature: 'sig' },
          { type: 'tool-call', id: '1', name: 'f', arguments: '{}' },
          { type: 'text', text: 'B' },
          { type: 'tool-call', id: '2', name: 'g', arguments: '{"x":1}' },
        ],
      },
    ];
    expect(renderHistoryAsText(messages, rendering)).toEqual([
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'why', signature: 'sig' },
          { type: 'text', text: 'AB\nCALL f {}\nCALL g {"x":1}' },
        ],
      },
    ]);
  });

  it('merges consecutive tool messages into one user turn and looks up missing tool names', () => {
    const messages: Message[] = [
      { role: 'assistant', content: [{ type: 'tool-call', id: 'c1', name: 'get_weather', arguments: '{}' }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', output: 'sunny' }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'unknown', output: 'x', isError: true }] },
      { role: 'user', content: [{ type: 'text', text: 'next' }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', output: 'late' }] },
    ];
    const rendered = renderHistoryAsText(messages, { ...rendering, renderResults: jsonResultLines });
    expect(rendered.map((message) => message.role)).toEqual(['assistant', 'user', 'user', 'user']);
    expect(rendered[1]).toEqual({
      role: 'user',
      content: [{ type: 'text', text: '{"name": "get_weather", "output": "sunny"}\n{"output": "x", "is_error": true}' }],
    });
    expect(rendered[3]).toEqual({ role: 'user', content: [{ type: 'text', text: '{"name": "get_weather", "output": "late"}' }] });
  });

  it('with turnPerCall and turnPerResult, writes one assistant turn per call (the first with the text and reasoning) and one user turn per result', () => {
    const messages: Message[] = [
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'why', signature: 'sig' },
          { type: 'text', text: 'A' },
          { type: 'tool-call', id: '1', name: 'f', arguments: '{}' },
          { type: 'tool-call', id: '2', name: 'g', arguments: '{"x":1}' },
        ],
      },
      {
        role: 'tool',
        content: [
          { type: 'tool-result', toolCallId: '1', output: 'one' },
          { type: 'tool-result', toolCallId: '2', output: 'two' },
        ],
      },
      { role: 'assistant', content: [{ type: 'text', text: 'done' }] },
    ];
    expect(renderHistoryAsText(messages, { ...rendering, turnPerCall: true, turnPerResult: true })).toEqual([
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'why', signature: 'sig' },
          { type: 'text', text: 'A\nCALL f {}' },
        ],
      },
      { role: 'assistant', content: [{ type: 'text', text: 'CALL g {"x":1}' }] },
      { role: 'user', content: [{ type: 'text', text: '<r>\none\n</r>' }] },
      { role: 'user', content: [{ type: 'text', text: '<r>\ntwo\n</r>' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'done' }] },
    ]);
  });

  it('leaves messages without calls untouched', () => {
    const messages: Message[] = [
      { role: 'system', content: 's' },
      { role: 'assistant', content: [{ type: 'text', text: 'hi' }] },
    ];
    expect(renderHistoryAsText(messages, rendering)).toEqual(messages);
  });
});
