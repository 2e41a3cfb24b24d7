/**
 * Responses tools → neutral tools and kinds; a known (deeply frozen) wire list is translated once, while
 * the kinds' lookup tables and the warnings stay each request's own.
 */
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../../src/core/gateway-error.js';
import { isSharedToolList, shareToolList } from '../../../src/core/shared-tool-list.js';
import { RequestCaches } from '../../../src/core/request-caches.js';

/** One set for the file, as the app has one. */
const caches = new RequestCaches();
import { parseResponsesTools } from '../../../routes/responses/parse-responses-tools.js';
import type { WireTool } from '../../../routes/responses/responses-request-schema.js';

function wireTools(): WireTool[] {
  return [
    {
      type: 'function',
      name: 'exec_command',
      description: 'Runs a command.',
      strict: false,
      parameters: { type: 'object', properties: { cmd: { type: 'string' } } },
    },
    {
      type: 'custom',
      name: 'apply_patch',
      description: 'Edits files.',
      format: { type: 'grammar', syntax: 'lark', definition: 'start: "x"' },
    },
    {
      type: 'namespace',
      name: 'multi_agent_v1',
      tools: [{ type: 'function', name: 'close_agent', parameters: { type: 'object', properties: {} } }],
    },
    { type: 'web_search' },
  ];
}

describe('parseResponsesTools', () => {
  it('maps function, custom and namespace tools, and drops the hosted one with a warning', () => {
    const parsed = parseResponsesTools(wireTools(), caches);
    expect(parsed.tools.map((tool) => tool.name)).toEqual(['exec_command', 'apply_patch', 'close_agent']);
    expect(parsed.tools[1]?.parameters).toMatchObject({ properties: { input: { type: 'string' } }, required: ['input'] });
    expect([...parsed.kinds.custom]).toEqual(['apply_patch']);
    expect([...parsed.kinds.namespaces]).toEqual([['close_agent', 'multi_agent_v1']]);
    expect(parsed.warnings).toEqual([{ code: 'unsupported-tool', message: expect.stringContaining("'web_search' (tools[3])") }]);
  });

  it('translates a known list once into one deeply frozen tools array shared by every request', () => {
    const known = shareToolList(wireTools());
    const first = parseResponsesTools(known, caches);
    const second = parseResponsesTools(known, caches);
    expect(second.tools).toBe(first.tools);
    expect(isSharedToolList(first.tools)).toBe(true);
    expect(Object.isFrozen(first.tools[1]!.parameters)).toBe(true);
    expect(first.tools).toEqual(parseResponsesTools(wireTools(), caches).tools);
  });

  it('gives each request its own kinds and warnings, the same as a fresh translation', () => {
    const known = shareToolList(wireTools());
    const first = parseResponsesTools(known, caches);
    const second = parseResponsesTools(known, caches);
    const fresh = parseResponsesTools(wireTools(), caches);
    // A Set or a Map cannot be frozen, so a shared one could be changed by one request under another.
    expect(second.kinds.custom).not.toBe(first.kinds.custom);
    expect(second.kinds.namespaces).not.toBe(first.kinds.namespaces);
    expect(second.kinds).toEqual(fresh.kinds);
    expect(second.warnings).not.toBe(first.warnings);
    expect(second.warnings).toEqual(fresh.warnings);
    first.warnings.push({ code: 'later', message: 'added by the first request' });
    expect(parseResponsesTools(known, caches).warnings).toEqual(fresh.warnings);
  });

  it('translates a list that is not known afresh each time, leaving the result mutable', () => {
    const tools = wireTools();
    const first = parseResponsesTools(tools, caches);
    expect(parseResponsesTools(tools, caches).tools).not.toBe(first.tools);
    expect(Object.isFrozen(first.tools)).toBe(false);
  });

  it('refuses a known list with a duplicate name on every request', () => {
    const known = shareToolList([...wireTools(), { type: 'function', name: 'exec_command', parameters: { type: 'object' } }]);
    for (let turn = 0; turn < 2; turn++) {
      expect(() => parseResponsesTools(known, caches)).toThrow(GatewayError);
      expect(() => parseResponsesTools(known, caches)).toThrow(/Duplicate tool name 'exec_command' at 'tools\[4\]\.name'/);
    }
  });

  it('reads no tools as an empty translation', () => {
    for (const none of [null, undefined, []])
      expect(parseResponsesTools(none, caches)).toEqual({ tools: [], kinds: { custom: new Set(), namespaces: new Map() }, warnings: [] });
  });
});
