/** Chat Completions tools → neutral definitions; a known (deeply frozen) wire list is translated once. */
import { describe, expect, it } from 'vitest';
import { freezeDeeply, isDeeplyFrozen } from '../../../src/core/immutable-values.js';
import type { WireTool } from '../../../routes/chat-completions/chat-completion-request-schema.js';
import { parseChatTools } from '../../../routes/chat-completions/parse-chat-tools.js';

function wireTools(): WireTool[] {
  return [
    { type: 'function', function: { name: 'get_weather', description: 'Weather.', parameters: { type: 'object' }, strict: true }, examples: [{ arguments: { city: 'Paris' } }] },
    { name: 'flat', description: 'The flat shape', tags: ['a', 1] } as WireTool,
  ];
}

describe('parseChatTools', () => {
  it('translates both shapes, with prompt metadata from the wrapper', () => {
    expect(parseChatTools(wireTools())).toEqual([
      { name: 'get_weather', description: 'Weather.', parameters: { type: 'object' }, strict: true, examples: [{ arguments: { city: 'Paris' } }] },
      { name: 'flat', description: 'The flat shape', parameters: { type: 'object', properties: {} }, tags: ['a'] },
    ]);
  });

  it('translates a known list once into a deeply frozen result shared by every request', () => {
    const known = freezeDeeply(wireTools());
    const first = parseChatTools(known);
    expect(parseChatTools(known)).toBe(first);
    expect(isDeeplyFrozen(first)).toBe(true);
    expect(Object.isFrozen(first[0]!.examples![0])).toBe(true);
    expect(first).toEqual(parseChatTools(wireTools()));
  });

  it('translates a list that is not known afresh each time, leaving it mutable', () => {
    const tools = wireTools();
    const first = parseChatTools(tools);
    expect(parseChatTools(tools)).not.toBe(first);
    expect(isDeeplyFrozen(first)).toBe(false);
  });
});
