/** Chat Completions tools → neutral definitions; a known (deeply frozen) wire list is translated once. */
import { describe, expect, it } from 'vitest';
import { isSharedToolList, shareToolList } from '../../../src/core/shared-tool-list.js';
import { RequestCaches } from '../../../src/core/request-caches.js';
import type { WireTool } from '../../../routes/chat-completions/chat-completion-request-schema.js';
import { parseChatTools } from '../../../routes/chat-completions/parse-chat-completion-request.js';

/** One set for the file, as the app has one. */
const caches = new RequestCaches();

function wireTools(): WireTool[] {
  return [
    {
      type: 'function',
      function: { name: 'get_weather', description: 'Weather.', parameters: { type: 'object' }, strict: true },
      examples: [{ arguments: { city: 'Paris' } }],
    },
    { name: 'flat', description: 'The flat shape', tags: ['a', 1] } as WireTool,
  ];
}

describe('parseChatTools', () => {
  it('translates both shapes, with prompt metadata from the wrapper', () => {
    expect(parseChatTools(wireTools(), caches.toolTranslations)).toEqual([
      {
        name: 'get_weather',
        description: 'Weather.',
        parameters: { type: 'object' },
        strict: true,
        examples: [{ arguments: { city: 'Paris' } }],
      },
      { name: 'flat', description: 'The flat shape', parameters: { type: 'object', properties: {} }, tags: ['a'] },
    ]);
  });

  it('translates a known list once into a deeply frozen result shared by every request', () => {
    const known = shareToolList(wireTools());
    const first = parseChatTools(known, caches.toolTranslations);
    expect(parseChatTools(known, caches.toolTranslations)).toBe(first);
    expect(isSharedToolList(first)).toBe(true);
    expect(Object.isFrozen(first[0]!.examples![0])).toBe(true);
    expect(first).toEqual(parseChatTools(wireTools(), caches.toolTranslations));
  });

  it('translates a list that is not known afresh each time, leaving it mutable', () => {
    const tools = wireTools();
    const first = parseChatTools(tools, caches.toolTranslations);
    expect(parseChatTools(tools, caches.toolTranslations)).not.toBe(first);
    expect(isSharedToolList(first)).toBe(false);
  });
});
