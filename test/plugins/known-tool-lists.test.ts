/**
 * The body parser's known tool lists: the same result and errors as JSON.parse for every body, a
 * remembered list reused (frozen) only at the top-level `tools`, learnt on its second sighting.
 */
import { describe, expect, it } from 'vitest';
import { isSharedToolList } from '../../src/core/shared-tool-list.js';
import { KnownToolLists } from '../../src/plugins/known-tool-lists.js';

/** A list of about 6 KB: above the default 4 KB threshold. */
function toolList(variant = 'a', count = 40): Record<string, unknown>[] {
  return Array.from({ length: count }, (_, index) => ({
    type: 'function',
    function: {
      name: `tool_${variant}_${index}`,
      description: `Tool ${index} of list ${variant}: "quoted", [bracketed] and {braced} text, a back\\slash.`,
      parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
    },
  }));
}

const messages = [{ role: 'user', content: 'hi' }];

function chatBody(tools: unknown, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ model: 'local/m', messages, tools, ...extra });
}

/** Parses until the list is remembered (the second sighting learns it), then once more. */
function parseKnown(lists: KnownToolLists, body: string): Record<string, unknown> {
  lists.parse(body);
  lists.parse(body);
  return lists.parse(body) as Record<string, unknown>;
}

describe('KnownToolLists', () => {
  it('learns a large list on its second sighting and then reuses one frozen value', () => {
    const lists = new KnownToolLists();
    const body = chatBody(toolList());
    const first = lists.parse(body) as Record<string, unknown>;
    expect(lists.size).toBe(0);
    expect(isSharedToolList(first.tools)).toBe(false);
    const second = lists.parse(body) as Record<string, unknown>;
    expect(lists.size).toBe(1);
    const third = lists.parse(body) as Record<string, unknown>;
    expect(third).toEqual(JSON.parse(body));
    expect(third.tools).toBe(second.tools);
    expect(third).not.toBe(second);
    expect(isSharedToolList(third.tools)).toBe(true);
    expect(Object.isFrozen((third.tools as { function: { parameters: object } }[])[5]!.function.parameters)).toBe(true);
  });

  it('keeps the body key order and every other member of each body', () => {
    const lists = new KnownToolLists();
    const tools = toolList();
    parseKnown(lists, chatBody(tools));
    const body = JSON.stringify({
      temperature: 0,
      tools,
      model: 'local/other',
      messages: [{ role: 'user', content: 'again' }],
      stream: true,
    });
    const parsed = lists.parse(body);
    expect(JSON.stringify(parsed)).toBe(body);
  });

  it('finds the list whatever the whitespace around the key and the colon (Python writes `"tools": [`)', () => {
    const lists = new KnownToolLists();
    const tools = toolList();
    const compact = JSON.stringify(tools);
    parseKnown(lists, chatBody(tools));
    const known = (lists.parse(chatBody(tools)) as Record<string, unknown>).tools;
    for (const separator of [': ', ' :', ' : ', ':\n  ', '\t:\r\n']) {
      const body = `{"model": "local/m", "messages": [], "tools"${separator}${compact}, "stream": false}`;
      const parsed = lists.parse(body) as Record<string, unknown>;
      expect(parsed).toEqual(JSON.parse(body));
      expect(parsed.tools).toBe(known);
    }
  });

  it('learns a list written with Python-style separators and reuses it', () => {
    const lists = new KnownToolLists();
    const text = JSON.stringify(toolList(), null, 1);
    const body = `{"model": "local/m", "messages": [], "tools": ${text}}`;
    const parsed = parseKnown(lists, body);
    expect(lists.size).toBe(1);
    expect(parsed).toEqual(JSON.parse(body));
    expect(isSharedToolList(parsed.tools)).toBe(true);
  });

  it('never reuses a list for a nested `tools` key, even one with a known list as its value', () => {
    const lists = new KnownToolLists();
    const tools = toolList();
    parseKnown(lists, chatBody(tools));
    const small = [{ type: 'function', function: { name: 'only' } }];
    const body = JSON.stringify({ model: 'local/m', metadata: { tools }, messages, tools: small });
    const parsed = lists.parse(body) as Record<string, unknown>;
    expect(parsed).toEqual(JSON.parse(body));
    expect(isSharedToolList((parsed.metadata as Record<string, unknown>).tools)).toBe(false);
    const nestedOnly = JSON.stringify({ model: 'local/m', metadata: { tools }, messages });
    expect(lists.parse(nestedOnly)).toEqual(JSON.parse(nestedOnly));
    expect((lists.parse(nestedOnly) as Record<string, unknown>).tools).toBeUndefined();
  });

  it('follows JSON.parse on duplicate top-level keys: the last one wins', () => {
    const lists = new KnownToolLists();
    const known = JSON.stringify(toolList());
    const other = JSON.stringify(toolList('b'));
    parseKnown(lists, chatBody(toolList()));
    const knownFirst = `{"model":"local/m","tools":${known},"messages":[],"tools":${other}}`;
    expect(lists.parse(knownFirst)).toEqual(JSON.parse(knownFirst));
    expect((lists.parse(knownFirst) as Record<string, unknown>).tools as unknown[]).toEqual(toolList('b'));
    const knownLast = `{"model":"local/m","tools":${other},"messages":[],"tools":${known}}`;
    const parsed = lists.parse(knownLast) as Record<string, unknown>;
    expect(parsed).toEqual(JSON.parse(knownLast));
    expect(isSharedToolList(parsed.tools)).toBe(true);
  });

  it('does not take a longer list that starts like a known one for it', () => {
    const lists = new KnownToolLists();
    parseKnown(lists, chatBody(toolList()));
    const longer = chatBody([...toolList(), { type: 'function', function: { name: 'extra' } }]);
    expect(lists.parse(longer)).toEqual(JSON.parse(longer));
  });

  it('skips a small nested list to reach the top-level one', () => {
    const lists = new KnownToolLists();
    const body = JSON.stringify({
      model: 'local/m',
      messages: [{ role: 'user', content: 'hi', extra: { tools: [1, 2] } }],
      tools: toolList(),
    });
    const parsed = parseKnown(lists, body);
    expect(parsed).toEqual(JSON.parse(body));
    expect(isSharedToolList(parsed.tools)).toBe(true);
  });

  it('tries one substitution per body: a large nested list met first keeps the body on the plain parse', () => {
    const lists = new KnownToolLists();
    const body = JSON.stringify({
      model: 'local/m',
      messages: [{ role: 'user', content: 'hi', input: { tools: toolList('nested') } }],
      tools: toolList(),
    });
    const parsed = parseKnown(lists, body);
    expect(parsed).toEqual(JSON.parse(body));
    expect(isSharedToolList(parsed.tools)).toBe(false);
  });

  it('looks at no more than four `"tools"` keys per body', () => {
    const lists = new KnownToolLists();
    const nested = (count: number) => Array.from({ length: count }, () => ({ role: 'user', content: 'hi', extra: { tools: [1] } }));
    const reachable = JSON.stringify({ model: 'local/m', messages: nested(3), tools: toolList() });
    expect(isSharedToolList(parseKnown(lists, reachable).tools)).toBe(true);
    const beyond = JSON.stringify({ model: 'local/m', messages: nested(4), tools: toolList('b') });
    const parsed = parseKnown(lists, beyond);
    expect(parsed).toEqual(JSON.parse(beyond));
    expect(isSharedToolList(parsed.tools)).toBe(false);
  });

  it('leaves lists and bodies below its minimum length alone', () => {
    const lists = new KnownToolLists({ minimumLength: 4096 });
    const small = chatBody(toolList('a', 3));
    parseKnown(lists, small);
    const padded = chatBody(toolList('a', 3), { padding: 'x'.repeat(5000) });
    const parsed = parseKnown(lists, padded);
    expect(parsed).toEqual(JSON.parse(padded));
    expect(lists.size).toBe(0);
  });

  it('evicts the least recently used list beyond its capacity', () => {
    const lists = new KnownToolLists({ capacity: 2 });
    const [a, b, c] = ['a', 'b', 'c'].map((variant) => chatBody(toolList(variant)));
    const knownA = parseKnown(lists, a!).tools;
    const knownB = parseKnown(lists, b!).tools;
    expect((lists.parse(a!) as Record<string, unknown>).tools).toBe(knownA);
    parseKnown(lists, c!);
    expect(lists.size).toBe(2);
    // a was used after b, so b went: a is still the same value, b's is a new one.
    expect((lists.parse(a!) as Record<string, unknown>).tools).toBe(knownA);
    const bAgain = lists.parse(b!) as Record<string, unknown>;
    expect(bAgain.tools).toEqual(knownB);
    expect(bAgain.tools).not.toBe(knownB);
  });

  it.each([
    ['truncated after a known list', (tools: string) => `{"model":"local/m","messages":[],"tools":${tools}`],
    ['garbage after a known list', (tools: string) => `{"model":"local/m","messages":[],"tools":${tools}} x`],
    ['a known list followed by a missing comma', (tools: string) => `{"model":"local/m","tools":${tools} "messages":[]}`],
    ['a known list with an unclosed string before it', (tools: string) => `{"model":"local/m,"tools":${tools},"messages":[]}`],
  ])('throws what JSON.parse throws on invalid JSON: %s', (_title, build) => {
    const lists = new KnownToolLists();
    const tools = JSON.stringify(toolList());
    parseKnown(lists, chatBody(toolList()));
    const body = build(tools);
    const expected = (() => {
      try {
        JSON.parse(body);
      } catch (error) {
        return error as Error;
      }
      throw new Error('the body was expected to be invalid JSON');
    })();
    expect(() => lists.parse(body)).toThrow(expected.message);
  });

  it('reuses nothing for a member whose key only ends in `"tools"`, or for a body that is an array', () => {
    const lists = new KnownToolLists();
    const tools = JSON.stringify(toolList());
    parseKnown(lists, chatBody(toolList()));
    for (const body of [`{"model":"local/m","x\\"tools":${tools},"messages":[]}`, `[{"tools":${tools}}]`]) {
      const parsed = lists.parse(body);
      expect(parsed).toEqual(JSON.parse(body));
      expect(JSON.stringify(parsed)).not.toContain('interlingua-known-tools');
    }
  });

  it('answers a body that is not an object (or not JSON) as JSON.parse does', () => {
    const lists = new KnownToolLists({ minimumLength: 2 });
    expect(lists.parse('[1,2]')).toEqual([1, 2]);
    expect(lists.parse('"tools"')).toBe('tools');
    expect(() => lists.parse('{"tools":[1,2')).toThrow(SyntaxError);
  });
});
