/** parseMessagesRequest around a known tool list: the shared neutral tools, and what stays per request. */
import { describe, expect, it } from 'vitest';
import { isSharedToolList, shareToolList } from '../../../src/core/shared-tool-list.js';
import { RequestCaches } from '../../../src/core/request-caches.js';
import { BodyValidators } from '../../../routes/shared/body-validator.js';

/** One set for the file, as the app has one. */
const caches = new RequestCaches();
const validators = new BodyValidators();
import { parseMessagesRequest } from '../../../routes/messages/parse-messages-request.js';

const tools = shareToolList([
  { name: 'Read', description: 'Reads a file.', input_schema: { type: 'object', properties: { file_path: { type: 'string' } } } },
  { name: 'Write', input_schema: { type: 'object', properties: { file_path: { type: 'string' }, content: { type: 'string' } } } },
  { name: 'web_search', type: 'web_search_20250305' },
]);

function body(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { model: 'local/m', max_tokens: 100, messages: [{ role: 'user', content: 'Hi' }], tools, ...extra };
}

describe('parseMessagesRequest with a known tool list', () => {
  it('gives every request the same frozen neutral tools, and each its own warnings', () => {
    const first = parseMessagesRequest(body(), {}, validators, caches);
    const second = parseMessagesRequest(body({ top_k: 5 }), {}, validators, caches);
    expect(second.input.tools).toBe(first.input.tools);
    expect(isSharedToolList(first.input.tools)).toBe(true);
    expect(first.input.tools?.map((tool) => tool.name)).toEqual(['Read', 'Write']);
    expect(first.warnings.map((warning) => warning.code)).toEqual(['unsupported-tool']);
    expect(second.warnings.map((warning) => warning.code)).toEqual(['unsupported-tool']);
    expect(second.input.openaiExtras).toEqual({ top_k: 5 });
    expect(first.input.openaiExtras).toBeUndefined();
  });

  it('takes tool_choice from each request, leaving the shared tools as they were', () => {
    const named = parseMessagesRequest(
      body({ tool_choice: { type: 'tool', name: 'Write', disable_parallel_tool_use: true } }),
      {},
      validators,
      caches,
    );
    const plain = parseMessagesRequest(body(), {}, validators, caches);
    expect(named.input.toolChoice).toEqual({ type: 'tool', name: 'Write' });
    expect(named.input.parallelToolCalls).toBe(false);
    expect(plain.input.toolChoice).toBeUndefined();
    expect(plain.input.parallelToolCalls).toBeUndefined();
    expect(plain.input.tools).toBe(named.input.tools);
  });

  it('still refuses tool_choice any when a known list holds only server tools, on every request', () => {
    const serverOnly = shareToolList([{ name: 'web_search', type: 'web_search_20250305' }]);
    for (let turn = 0; turn < 2; turn++) {
      expect(() => parseMessagesRequest(body({ tools: serverOnly, tool_choice: { type: 'any' } }), {}, validators, caches)).toThrow(
        /needs at least one custom tool/,
      );
    }
  });
});
